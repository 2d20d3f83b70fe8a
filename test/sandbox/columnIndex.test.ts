/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox answers a `oneof` from an index of the column it names (sandbox/dataSources/
// columnIndex.js): its answers must be those of testing every entry, under every reading, also
// after writes that came once the index was built.
import { createRequire } from 'module';
import * as fc from 'fast-check';

const load = createRequire(__filename);
const store = load('../../sandbox/dataSources/store');
const { entryWhere } = load('../../sandbox/dataSources/columnNames');

const DS = 1;

/** Cells that `oneof` compares differently in its readings, or not at all. */
const CELLS: unknown[] = [
	'Ann',
	'ann',
	' ANN ',
	'Bob',
	'5',
	' 5',
	'5.0',
	'05',
	5,
	5.5,
	-0,
	0,
	'0',
	true,
	'true',
	'TRUE',
	false,
	'',
	null,
	{ a: 1 },
	['Ann'],
	'[object Object]',
];
const MISSING = CELLS.length;

const cell = fc.nat(CELLS.length);
const dataOf = (pick: number, other: number) =>
	pick === MISSING ? { Other: other } : { K: CELLS[pick], Other: other };

const action = fc.oneof(
	fc.record({ kind: fc.constant('append' as const), cells: fc.array(cell, { maxLength: 6 }) }),
	fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), cell }),
	fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
	fc.record({ kind: fc.constant('reset' as const), cells: fc.array(cell, { maxLength: 6 }) }),
	fc.record({
		kind: fc.constant('query' as const),
		values: fc.array(cell, { maxLength: 4 }),
		asText: fc.boolean(),
		column: fc.constantFrom('K', 'Other', 'id', 'data.K'),
		also: fc.boolean(),
	}),
);

const READINGS = [
	{ where: 'bare', oneof: 'text' },
	{ where: 'bare', oneof: 'typed' },
	{ where: 'prefixed', oneof: 'text' },
	{ where: 'prefixed', oneof: 'typed' },
];

describe('sandbox: the column index of `oneof`', () => {
	it.each(READINGS)(
		'answers as testing every entry does (where $where, oneof $oneof)',
		(readings) => {
			fc.assert(
				fc.property(
					fc.array(cell, { maxLength: 30 }),
					fc.array(action, { maxLength: 25 }),
					(seed, actions) => {
						let nextId = 1;
						const state: any = { now: () => 0 };
						const make = (pick: number) => ({
							id: nextId++,
							data: dataOf(pick, nextId),
							dataSourceId: DS,
						});
						store.setEntries(state, DS, seed.map(make));
						for (const step of actions) {
							const entries = store.entriesOf(state, DS);
							if (step.kind === 'append') store.appendEntries(state, DS, step.cells.map(make));
							else if (step.kind === 'reset') store.setEntries(state, DS, step.cells.map(make));
							else if (step.kind === 'replace' && entries.length) {
								const entry = entries[step.at % entries.length];
								store.replaceEntry(state, DS, { ...entry, data: dataOf(step.cell, entry.id) });
							} else if (step.kind === 'remove' && entries.length) {
								store.removeEntries(state, DS, [entries[step.at % entries.length].id]);
							} else if (step.kind === 'query') {
								const list = step.values.map((pick) =>
									pick === MISSING ? undefined : CELLS[pick],
								);
								const value = step.asText ? list.map(String).join(',') : list;
								const filters: any[] = [{ column: step.column, condition: 'oneof', value }];
								if (step.also) filters.push({ column: 'Other', condition: 'notempty' });
								const where = { $filters: filters };
								const test = entryWhere(where, readings);
								const scanned = store.entriesOf(state, DS).filter(test);
								const candidates = store.candidatesFor(state, DS, where);
								// A data column is answered from its index; other names test every entry.
								if (step.column === 'K') expect(candidates).toBeDefined();
								const indexed = (candidates ?? store.entriesOf(state, DS)).filter(test);
								expect(indexed).toEqual(scanned);
							}
						}
					},
				),
				{ numRuns: 300 },
			);
		},
	);

	it('tests only the entries holding the values asked for', () => {
		let nextId = 1;
		const state: any = { now: () => 0 };
		const entries = Array.from({ length: 10_000 }, (_, n) => ({
			id: nextId++,
			data: { Email: `u${n}@x.io` },
			dataSourceId: DS,
		}));
		store.appendEntries(state, DS, entries);
		const where = {
			$filters: [{ column: 'Email', condition: 'oneof', value: ['U7@x.io', 'u9@x.io'] }],
		};
		expect(store.candidatesFor(state, DS, where).map((entry: any) => entry.id)).toEqual([8, 10]);
		// Written after the index was built: found, and the old value is not.
		store.replaceEntry(state, DS, { ...entries[7], data: { Email: 'gone@x.io' } });
		store.appendEntries(state, DS, [
			{ id: nextId++, data: { Email: 'u9@x.io' }, dataSourceId: DS },
		]);
		expect(store.candidatesFor(state, DS, where).map((entry: any) => entry.id)).toEqual([
			10, 10_001,
		]);
	});
});

describe('sandbox: the readings of `oneof`', () => {
	const matches = (reading: string, cellValue: unknown, value: unknown[]) =>
		entryWhere(
			{ $filters: [{ column: 'K', condition: 'oneof', value }] },
			{ where: 'bare', oneof: reading },
		)({
			data: { K: cellValue },
		});

	it('text compares every value as trimmed text in any case', () => {
		expect(matches('text', 5, ['5'])).toBe(true);
		expect(matches('text', ' ANN ', ['ann'])).toBe(true);
		expect(matches('text', true, ['TRUE'])).toBe(true);
		expect(matches('text', 'x', [])).toBe(false);
	});

	it('typed compares a text with texts (in any case) and a number or a boolean with its own kind', () => {
		expect(matches('typed', 5, ['5'])).toBe(false);
		expect(matches('typed', '5', [5])).toBe(false);
		expect(matches('typed', 5, [5])).toBe(true);
		expect(matches('typed', ' ANN ', ['ann'])).toBe(true);
		expect(matches('typed', true, ['true'])).toBe(false);
		expect(matches('typed', true, [true])).toBe(true);
		expect(matches('typed', undefined, [''])).toBe(false);
	});
});
