/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox counts entries by fields with a Map instead of mingo's expression engine: checked
// here against mingo itself on random whole entries (`$data.Column`, as the platform addresses a
// column, and `$field` of the entry), so the fast path answers exactly as mingo would.
import { createRequire } from 'module';

const load = createRequire(__filename);
const { Aggregator } = load('mingo');
const { countGroupPlan, countGroups } = load('../../sandbox/dataSources/countGroups');
const { aggregate } = load('../../sandbox/dataSources/query');

/** A small deterministic random sequence, so a failure can be replayed. */
function random(seed: number) {
	let state = seed;
	return (below: number) => {
		state = (state * 1103515245 + 12345) % 2 ** 31;
		return state % below;
	};
}

const CELLS = [5, '5', 'a', 'A', ' a', null, undefined, true, 'true', 0, '', 1.5];

function randomDatas(seed: number, count: number) {
	const pick = random(seed);
	const cell = () => {
		const choice = pick(CELLS.length + 1);
		return choice < CELLS.length ? CELLS[choice] : undefined;
	};
	return Array.from({ length: count }, (_, index) => {
		const data: Record<string, unknown> = {};
		for (const column of ['a', 'b']) {
			const value = cell();
			if (value !== undefined) data[column] = value;
		}
		const entry: Record<string, unknown> = { id: index + 1, data };
		const kind = cell();
		if (kind !== undefined) entry.kind = kind;
		return entry;
	});
}

const BY_ONE = { $group: { _id: '$data.a', n: { $sum: 1 } } };
const BY_TWO = {
	$group: { _id: { k0: '$data.a', k1: '$data.b' }, n: { $sum: 1 }, twice: { $sum: 2 } },
};
const BY_FIELD = { $group: { _id: { kind: '$kind', a: '$data.a' }, n: { $sum: 1 } } };
const SIZES = { $group: { _id: '$n', keys: { $sum: 1 } } };

describe('sandbox: counting groups without mingo', () => {
	it.each([
		['one column', [BY_ONE], 1],
		['two columns', [BY_TWO], 2],
		['one column, then the groups by size', [BY_ONE, SIZES], 3],
		['two columns, then the groups by size', [BY_TWO, SIZES], 4],
		['a field of the entry and a column', [BY_FIELD, SIZES], 5],
	])('gives what mingo gives: %s', (_name, pipeline, seed) => {
		const datas = randomDatas(seed as number, 400);
		const [first] = pipeline as object[];
		expect(countGroups(datas, countGroupPlan(first))).toEqual(new Aggregator([first]).run(datas));
		const expected = new Aggregator(pipeline).run(datas);
		expect(aggregate(datas, pipeline)).toEqual(expected);
		expect(expected.length).toBeGreaterThan(5);
	});

	it('leaves values that mingo compares deeply or reads through to mingo', () => {
		const datas = [
			{ data: { a: { z: 1 } } },
			{ data: { a: { z: 1 } } },
			{ data: { a: [1] } },
			{ data: { a: 'x' } },
		];
		const plan = countGroupPlan(BY_ONE);
		expect(countGroups(datas, plan)).toBeUndefined();
		expect(aggregate(datas, [BY_ONE])).toEqual([
			{ _id: { z: 1 }, n: 2 },
			{ _id: [1], n: 1 },
			{ _id: 'x', n: 1 },
		]);
		const byTwo = countGroupPlan(BY_TWO);
		expect(countGroups([{ data: { a: 'x', b: [2] } }], byTwo)).toBeUndefined();
		// A list or a text where the path goes down: mingo reads through it its own way.
		for (const odd of [[{ data: [{ a: 1 }, { a: 2 }] }], [{ data: 'text' }], [{ data: 5 }]]) {
			expect(countGroups(odd, plan)).toBeUndefined();
			expect(aggregate(odd, [BY_ONE])).toEqual(new Aggregator([BY_ONE]).run(odd));
		}
		// No data, or data null: the column is missing, as in mingo.
		const missing = [{ id: 1 }, { id: 2, data: null }, { id: 3, data: {} }];
		expect(countGroups(missing, plan)).toEqual(new Aggregator([BY_ONE]).run(missing));
		expect(countGroups(missing, byTwo)).toEqual(new Aggregator([BY_TWO]).run(missing));
	});

	it('reads only fields an entry has itself, as mingo does', () => {
		const datas: object[] = [
			{ data: { constructor: 'x' } },
			{ data: {} },
			{ data: { toString: 1 } },
			{ data: { constructor: null } },
			{},
			{ constructor: 'y', data: {} },
		];
		for (const pipeline of [
			[{ $group: { _id: '$data.constructor', n: { $sum: 1 } } }],
			[{ $group: { _id: { a: '$data.constructor', b: '$data.toString' }, n: { $sum: 1 } } }],
			[{ $group: { _id: '$constructor', n: { $sum: 1 } } }],
		]) {
			expect(countGroupPlan(pipeline[0])).toBeDefined();
			expect(aggregate(datas, pipeline)).toEqual(new Aggregator(pipeline).run(datas));
		}
	});

	it.each([
		['a sum of a fraction', { $group: { _id: '$a', n: { $sum: 0.1 } } }],
		['a path three fields deep', { $group: { _id: '$data.a.b', n: { $sum: 1 } } }],
		['an empty field in a path', { $group: { _id: '$data.', n: { $sum: 1 } } }],
		['a variable', { $group: { _id: '$$ROOT', n: { $sum: 1 } } }],
		['a sum of a column', { $group: { _id: '$a', n: { $sum: '$b' } } }],
		['another accumulator', { $group: { _id: '$a', n: { $max: 1 } } }],
		['an operator in the _id object', { $group: { _id: { $toLower: '$a' }, n: { $sum: 1 } } }],
		['a literal _id', { $group: { _id: null, n: { $sum: 1 } } }],
		['another stage', { $sort: { a: 1 } }],
		['two stages in one', { $group: { _id: '$a', n: { $sum: 1 } }, $sort: { n: 1 } }],
	])('leaves %s to mingo', (_name, stage) => {
		expect(countGroupPlan(stage)).toBeUndefined();
	});
});
