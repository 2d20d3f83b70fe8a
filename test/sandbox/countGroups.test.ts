/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox counts entries by plain columns with a Map instead of mingo's expression engine:
// checked here against mingo itself on random entries, so the sandbox still answers as before.
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
	return Array.from({ length: count }, () => {
		const data: Record<string, unknown> = {};
		for (const column of ['a', 'b']) {
			const choice = pick(CELLS.length + 1);
			if (choice < CELLS.length) data[column] = CELLS[choice];
		}
		return data;
	});
}

const BY_ONE = { $group: { _id: '$a', n: { $sum: 1 } } };
const BY_TWO = { $group: { _id: { k0: '$a', k1: '$b' }, n: { $sum: 1 }, twice: { $sum: 2 } } };
const SIZES = { $group: { _id: '$n', keys: { $sum: 1 } } };

describe('sandbox: counting groups without mingo', () => {
	it.each([
		['one column', [BY_ONE], 1],
		['two columns', [BY_TWO], 2],
		['one column, then the groups by size', [BY_ONE, SIZES], 3],
		['two columns, then the groups by size', [BY_TWO, SIZES], 4],
	])('gives what mingo gives: %s', (_name, pipeline, seed) => {
		const datas = randomDatas(seed as number, 400);
		const [first] = pipeline as object[];
		expect(countGroups(datas, countGroupPlan(first))).toEqual(new Aggregator([first]).run(datas));
		const expected = new Aggregator(pipeline).run(datas);
		expect(aggregate(datas, pipeline)).toEqual(expected);
		expect(expected.length).toBeGreaterThan(5);
	});

	it('leaves values that mingo compares deeply to mingo', () => {
		const datas = [{ a: { z: 1 } }, { a: { z: 1 } }, { a: [1] }, { a: 'x' }];
		const plan = countGroupPlan(BY_ONE);
		expect(countGroups(datas, plan)).toBeUndefined();
		expect(aggregate(datas, [BY_ONE])).toEqual([
			{ _id: { z: 1 }, n: 2 },
			{ _id: [1], n: 1 },
			{ _id: 'x', n: 1 },
		]);
		const byTwo = countGroupPlan(BY_TWO);
		expect(countGroups([{ a: 'x', b: [2] }], byTwo)).toBeUndefined();
	});

	it('reads only columns an entry has itself, as mingo does', () => {
		const datas: object[] = [{ constructor: 'x' }, {}, { toString: 1 }, { constructor: null }, {}];
		for (const pipeline of [
			[{ $group: { _id: '$constructor', n: { $sum: 1 } } }],
			[{ $group: { _id: { a: '$constructor', b: '$toString' }, n: { $sum: 1 } } }],
		]) {
			expect(countGroupPlan(pipeline[0])).toBeDefined();
			expect(aggregate(datas, pipeline)).toEqual(new Aggregator(pipeline).run(datas));
		}
	});

	it.each([
		['a sum of a fraction', { $group: { _id: '$a', n: { $sum: 0.1 } } }],
		['a dotted path', { $group: { _id: '$a.b', n: { $sum: 1 } } }],
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
