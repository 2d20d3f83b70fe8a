import {
	approxJsonSize,
	COMMITS_IN_FLIGHT,
	planCommits,
	type PlannedCommit,
} from '../../nodes/Fliplet/actions/entry/sync/chunks';
import {
	diffRows,
	isFlagSet,
	stampOf,
	startDiff,
	type SyncPlan,
} from '../../nodes/Fliplet/actions/entry/sync/diff';
import { jsonEqual } from '../../nodes/Fliplet/actions/entry/sync/equal';
import { columnsFor } from '../../nodes/Fliplet/actions/entry/sync/attributes';
import type { SyncSettings } from '../../nodes/Fliplet/actions/entry/sync/settings';
import { buildOutput } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { typecastValue } from '../../nodes/Fliplet/helpers/spreadsheetText';
import { typecastRow } from '../../nodes/Fliplet/actions/entry/sync/typecast';
import { insertsOf, options, rows } from './planInputs';

const emptyPlan = (more: Partial<SyncPlan> = {}): SyncPlan => ({
	inserts: [],
	updates: [],
	deletes: [],
	unchanged: 0,
	skipped: [],
	existingCount: 0,
	flaggedAbsent: 0,
	notFound: [],
	matched: 0,
	shared: [],
	rows: [],
	keys: [],
	foldedInto: new Map(),
	columnTypes: new Map(),
	...more,
});

describe('Sync planning: rows without a usable key', () => {
	it('names every missing key column, in the plural when there are several', () => {
		const plan = diffRows(
			rows({ Email: 'a' }, { Last: 'x' }, { First: 'y', Last: 'z' }),
			[],
			options({ keyColumns: ['First', 'Last'] }),
		);
		expect(plan.skipped).toEqual([
			{ itemIndex: 0, reason: 'Missing key columns "First", "Last"' },
			{ itemIndex: 1, reason: 'Missing key column "First"' },
		]);
		expect(insertsOf(plan).map((row) => row.itemIndex)).toEqual([2]);
	});

	it('skips every row sharing a key, however many share it, and names the others', () => {
		const plan = diffRows(
			rows({ Email: 'a' }, { Email: 'a' }, { Email: 'a' }, { Email: 'b' }),
			[],
			options(),
		);
		expect(plan.skipped).toEqual([
			{ itemIndex: 0, reason: 'Duplicate key (also in item 1, 2)', key: 'a' },
			{ itemIndex: 1, reason: 'Duplicate key (also in item 0, 2)', key: 'a' },
			{ itemIndex: 2, reason: 'Duplicate key (also in item 0, 1)', key: 'a' },
		]);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['b']);
	});

	it('reports a duplicate key of several columns as the list of its cells, lower-cased when case is ignored', () => {
		const plan = diffRows(
			rows({ A: 'X', B: ' y ' }, { A: 'x', B: 'Y' }, { A: 'x', B: 'z' }),
			[],
			options({ keyColumns: ['A', 'B'], ignoreKeyCase: true }),
		);
		expect(plan.skipped).toEqual([
			{ itemIndex: 0, reason: 'Duplicate key (also in item 1)', key: '["x","y"]' },
			{ itemIndex: 1, reason: 'Duplicate key (also in item 0)', key: '["x","y"]' },
		]);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['["x","z"]']);
	});

	it('lists skipped rows in input order when duplicates come before a row without a key', () => {
		const plan = diffRows(
			rows({ Email: 'a' }, { Email: 'a' }, { Name: 'none' }, { Email: 'c' }, { Name: 'none' }),
			[],
			options(),
		);
		expect(plan.skipped.map((row) => row.itemIndex)).toEqual([0, 1, 2, 4]);
	});
});

describe('Sync planning: delete flags', () => {
	it('reads true, 1 and "true" / "1" / "yes" in any case and with spaces as set', () => {
		for (const value of [true, 1, 'true', 'TRUE', ' Yes ', ' 1', 'yes\n']) {
			expect(isFlagSet(value)).toBe(true);
		}
		for (const value of [false, 0, 2, '', 'no', 'y', null, undefined, {}]) {
			expect(isFlagSet(value)).toBe(false);
		}
	});

	it('deletes the entry of a flagged row, counts flagged rows without an entry, and leaves the rest', () => {
		const plan = diffRows(
			rows(
				{ Email: 'a', Gone: 'yes' },
				{ Email: 'b', Gone: 'no', Name: 'B2' },
				{ Email: 'c', Gone: 1 },
				{ Email: 'd', Gone: '' },
			),
			[
				{ id: 1, data: { Email: 'a' } },
				{ id: 2, data: { Email: 'b', Name: 'B' } },
			],
			options({ deleteColumn: 'Gone' }),
		);
		expect(plan.deletes).toEqual([{ id: 1, key: 'a', flagged: true }]);
		expect(plan.updates.map((row) => row.id)).toEqual([2]);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['d']);
		expect(plan.flaggedAbsent).toBe(1);
	});

	// "undefined" too: the column name a missing option would read.
	it.each([
		['Gone', true],
		['undefined', 'yes'],
	])(
		'without a delete flag column, a column named "%s" holding a flag value is written as data',
		(column, flag) => {
			const plan = diffRows(
				rows({ Email: 'a', [column]: flag }, { Email: 'b', [column]: flag }),
				[{ id: 1, data: { Email: 'a' } }],
				options(),
			);
			expect(plan.deletes).toEqual([]);
			expect(plan.updates.map((row) => row.id)).toEqual([1]);
			expect(insertsOf(plan).map((row) => row.key)).toEqual(['b']);
			expect(plan.flaggedAbsent).toBe(0);
		},
	);
});

describe('Sync planning: timestamps', () => {
	it('reads numbers, numeric text and date text, trimmed', () => {
		expect(stampOf(5)).toBe(5);
		expect(stampOf('42')).toBe(42);
		expect(stampOf(' 1700000000000 ')).toBe(1700000000000);
		expect(stampOf('\t2024-01-01T10:00:00Z\n')).toBe(Date.UTC(2024, 0, 1, 10));
		expect(stampOf('2024-01-01T10:00:00Z')).toBe(Date.UTC(2024, 0, 1, 10));
	});

	it('has no time for empty or blank text, other values, infinities or unreadable text', () => {
		for (const value of ['', '   ', null, undefined, true, {}, [], Infinity, NaN, 'soon']) {
			expect(stampOf(value)).toBeUndefined();
		}
	});

	it('updates a changed row unless its entry is as new or newer, and skips rows without a time', () => {
		const plan = diffRows(
			rows(
				{ Email: 'a', Name: 'A2', At: 20 },
				{ Email: 'b', Name: 'B2', At: 10 },
				{ Email: 'c', Name: 'C2', At: 10 },
				{ Email: 'd', Name: 'D2', At: 10 },
				{ Email: 'e', Name: 'E2', At: ' ' },
			),
			[
				{ id: 1, data: { Email: 'a', Name: 'A', At: 10 } },
				{ id: 2, data: { Email: 'b', Name: 'B', At: 10 } },
				{ id: 3, data: { Email: 'c', Name: 'C', At: 30 } },
				{ id: 4, data: { Email: 'd', Name: 'D' } },
				{ id: 5, data: { Email: 'e', Name: 'E', At: 1 } },
			],
			options({ timestampColumn: 'At' }),
		);
		expect(plan.updates.map((row) => row.id)).toEqual([1, 4]);
		expect(plan.unchanged).toBe(2);
		expect(plan.skipped).toEqual([
			{ itemIndex: 4, key: 'e', reason: 'No readable time in timestamp column "At"' },
		]);
	});
});

describe('Sync planning: modes', () => {
	it('insert-only counts matched rows as unchanged, even with a newer time, and inserts the rest', () => {
		const plan = diffRows(
			rows({ Email: 'a', Name: 'A2', At: 99 }, { Email: 'b' }),
			[{ id: 1, data: { Email: 'a', Name: 'A', At: 1 } }],
			options({ mode: 'insertOnly', timestampColumn: 'At' }),
		);
		expect(plan.updates).toEqual([]);
		expect(plan.unchanged).toBe(1);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['b']);
	});

	it('mirror deletes keyless entries and absent keys as they are read, keeping ambiguous keys', () => {
		const diff = startDiff(
			rows({ Email: 'a' }, { Email: 'x' }, { Email: 'x' }),
			options({ mode: 'mirror' }),
		);
		diff.visit(4, { Email: 'gone' });
		diff.visit(5, { Name: 'no key' });
		diff.visit(6, { Email: 'x' });
		diff.visit(7, { Email: 'a' });
		diff.visit(8, { Email: 'a' });
		const plan = diff.finish();
		expect(plan.deletes).toEqual([
			{ id: 4, key: 'gone' },
			{ id: 5, key: null },
			{ id: 8, key: 'a' },
		]);
		expect(plan.unchanged).toBe(1);
		expect(plan.existingCount).toBe(5);
	});
	it('outside mirror mode leaves absent keys, keyless entries and later entries of a key alone', () => {
		const diff = startDiff(rows({ Email: 'a', Name: 'A2' }), options());
		diff.visit(4, { Email: 'gone' });
		diff.visit(5, { Name: 'no key' });
		diff.visit(6, { Email: 'a', Name: 'A' });
		diff.visit(7, { Email: 'a', Name: 'A' });
		const plan = diff.finish();
		expect(plan.deletes).toEqual([]);
		expect(plan.updates.map((row) => row.id)).toEqual([6]);
		expect(plan.unchanged).toBe(0);
		expect(plan.existingCount).toBe(4);
	});

	it('updating every matched row sends unchanged rows too, in input order', () => {
		const plan = diffRows(
			rows({ Email: 'b', Name: 'B' }, { Email: 'a', Name: 'A2' }),
			[
				{ id: 1, data: { Email: 'a', Name: 'A' } },
				{ id: 2, data: { Email: 'b', Name: 'B' } },
			],
			options({ updateAll: true }),
		);
		expect(plan.updates.map((row) => [row.itemIndex, row.id])).toEqual([
			[0, 2],
			[1, 1],
		]);
		expect(plan.unchanged).toBe(0);
	});
});

describe('Sync planning: equality of values', () => {
	it('never equals an object or array to a value that is not one', () => {
		for (const value of [1, 'x', '', true, null, undefined]) {
			expect(jsonEqual(value, {})).toBe(false);
			expect(jsonEqual({}, value)).toBe(false);
			expect(jsonEqual(value, [])).toBe(false);
			expect(jsonEqual([], value)).toBe(false);
		}
	});

	it('never equals an array to an object, even one with the same indexes', () => {
		expect(jsonEqual({}, [])).toBe(false);
		expect(jsonEqual([], {})).toBe(false);
		expect(jsonEqual({ 0: 'a' }, ['a'])).toBe(false);
		expect(jsonEqual(['a'], { 0: 'a', length: 1 })).toBe(false);
	});

	it('compares arrays element by element, length included', () => {
		expect(jsonEqual([1], [1, 2])).toBe(false);
		expect(jsonEqual([1, 2], [1])).toBe(false);
		expect(jsonEqual([1, 2], [1, 2, undefined])).toBe(false);
		expect(jsonEqual([1, 2], [1, 3])).toBe(false);
		expect(jsonEqual([1, undefined], [1, null])).toBe(true);
		expect(jsonEqual([null, 1], [undefined, 1])).toBe(true);
		expect(jsonEqual([{ a: 1 }, [2]], [{ a: 1 }, [2]])).toBe(true);
	});

	it('ignores object keys whose value is undefined, on either side', () => {
		expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
		expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
		expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(true);
		expect(jsonEqual({ a: 1, b: undefined }, { a: 1, b: null })).toBe(false);
	});

	it('replacing a row that only adds undefined columns changes nothing', () => {
		const plan = diffRows(
			rows({ Email: 'a', Name: 'Ann', Note: undefined }),
			[{ id: 1, data: { Email: 'a', Name: 'Ann' } }],
			options({ merge: false }),
		);
		expect(plan.updates).toEqual([]);
		expect(plan.unchanged).toBe(1);
	});
});

describe('Sync planning: typecast', () => {
	it('keeps exponent notation, infinities and NaN as text', () => {
		for (const text of ['1e+21', '1e-7', '2e+25', 'Infinity', '-Infinity', 'NaN']) {
			expect(typecastValue(text)).toBe(text);
		}
		expect(typecastRow({ a: '1e+21', b: '12' })).toEqual({ a: '1e+21', b: 12 });
	});
});

describe('Sync planning: read attributes', () => {
	const settings = (keyColumns: string[]) =>
		({ keyColumns, merge: true, updateAll: false }) as unknown as SyncSettings;
	const columns = (count: number) =>
		Object.fromEntries(Array.from({ length: count }, (_, i) => [`C${i}`, i]));

	it('names up to 100 columns and reads whole rows past that', () => {
		const hundred = columnsFor(rows({ Email: 'a', ...columns(99) }), settings(['Email']));
		expect(hundred).toHaveLength(100);
		expect(hundred.slice(0, 2)).toEqual(['Email', 'C0']);
		expect(columnsFor(rows({ Email: 'a', ...columns(100) }), settings(['Email']))).toBe('all');
	});
});

describe('Sync planning: commits', () => {
	const deletes = (...ids: number[]) => ids.map((id) => ({ id, key: null }));
	const idsOf = (commits: PlannedCommit[]) =>
		commits.map((commit) => commit.deletes.map((row) => row.id));

	it('splits deletes by the bytes their ids take', () => {
		const plan = emptyPlan({ deletes: deletes(10, 11, 12, 13, 14) });
		const options = { chunkSize: 100, merge: true, runHooks: [], outputRows: false, maxBytes: 6 };
		expect(idsOf(planCommits(plan, options))).toEqual([[10, 11], [12, 13], [14]]);
		expect(idsOf(planCommits(plan, { ...options, maxBytes: 9 }))).toEqual([
			[10, 11, 12],
			[13, 14],
		]);
	});

	it('counts the clientId of an insert only when the new ids are output', () => {
		const row = { Email: 'a' };
		const plan = emptyPlan({ inserts: [0, 1, 2, 3], rows: [row, row, row, row] });
		// An insert is `{"data":{"Email":"a"}},`: 23 bytes, 53 with its clientId.
		expect(JSON.stringify({ data: row }).length + 1).toBe(23);
		const sizes = (outputRows: boolean) =>
			planCommits(plan, {
				chunkSize: 100,
				merge: true,
				runHooks: [],
				outputRows,
				maxBytes: 50,
			}).map((commit) => commit.inserts.length);
		expect(sizes(false)).toEqual([2, 2]);
		expect(sizes(true)).toEqual([1, 1, 1, 1]);
	});

	it('splits updates by the bytes of the cells they send, each with its id', () => {
		const update = (id: number) => ({
			itemIndex: id,
			key: `k${id}`,
			id,
			data: { Email: `k${id}`, Note: 'x'.repeat(500) },
			cells: { Email: 'a' },
		});
		const plan = emptyPlan({ updates: [1, 2, 3, 4, 5].map(update) });
		// `{"id":…,"data":{"Email":"a"}},` is sized 53 bytes: two fit in 110, whatever the rows hold.
		const sizes = planCommits(plan, {
			chunkSize: 100,
			merge: true,
			runHooks: [],
			outputRows: false,
			maxBytes: 110,
		}).map((commit) => commit.updates.length);
		expect(sizes).toEqual([2, 2, 1]);
	});

	it('when there are more commits than go at once, makes the first ones grow to a full chunk', () => {
		const row = { Email: 'a' };
		const inserting = (count: number) =>
			emptyPlan({ inserts: [...Array(count).keys()], rows: Array(count).fill(row) });
		const inChunksOf4 = { chunkSize: 4, merge: true, runHooks: [], outputRows: false };
		const sizes = (plan: SyncPlan) =>
			planCommits(plan, inChunksOf4).map((commit) => commit.inserts.length + commit.updates.length);
		expect(COMMITS_IN_FLIGHT).toBe(4);
		// Five chunks of 4 cannot all go at once: the first four commits carry 1, 2, 3 and 4 rows.
		expect(sizes(inserting(20))).toEqual([1, 2, 3, 4, 4, 4, 2]);
		// Four go at once, as they are.
		expect(sizes(inserting(16))).toEqual([4, 4, 4, 4]);
		// The ramp goes on from the update commits to the insert commits.
		const update = (id: number) => ({ itemIndex: id, key: `k${id}`, id, data: row, cells: row });
		const mixed = { ...inserting(12), updates: [1, 2, 3].map(update) };
		const commits = planCommits(mixed, { ...inChunksOf4, chunkSize: 3 });
		expect(commits.map((commit) => commit.kind)).toEqual([
			'update',
			'update',
			'insert',
			'insert',
			'insert',
			'insert',
		]);
		expect(commits.map((commit) => commit.inserts.length + commit.updates.length)).toEqual([
			1, 2, 3, 3, 3, 3,
		]);
	});

	it('sizes plain ASCII rows exactly as JSON writes them, numbers and booleans included', () => {
		const numbers = [0, 7, 9, 10, 99, 100, 12_345, 999_999_999, 1e9, -1, -10, -999_999_999, -1e9];
		const others = [1.5, -0.25, 1e21, 2 ** 53, -0, 0.1 + 0.2];
		const rows = [...numbers, ...others].map((value, n) => ({
			Email: `row${n}@example.com`,
			Value: value,
			Active: n % 2 === 0,
			Gone: null,
		}));
		for (const row of rows) expect(approxJsonSize(row)).toBe(JSON.stringify(row).length);
	});

	it('sizes a row holding undefined values without failing, never below its JSON', () => {
		const row = { Email: 'a', Note: undefined, Score: 3, Flag: false, Gone: null };
		expect(approxJsonSize(row)).toBeGreaterThanOrEqual(JSON.stringify(row).length);
		const nested = { Tags: [1, 2, 3], Gone: null };
		expect(approxJsonSize(nested)).toBe(JSON.stringify(nested).length);
		const plan = emptyPlan({ inserts: [0], rows: [row], keys: ['a'] });
		expect(
			planCommits(plan, { chunkSize: 10, merge: true, runHooks: [], outputRows: false }),
		).toHaveLength(1);
	});
});

describe('Sync planning: summary', () => {
	const summaryOf = (flaggedAbsent?: number) =>
		buildOutput({
			plan: emptyPlan(),
			commits: [],
			mode: 'insertAndUpdate',
			requests: 1,
			itemCount: 1,
			outputRows: false,
			...(flaggedAbsent === undefined ? {} : { flaggedAbsent }),
		})[0].json;

	it('reports flagged rows without an entry only when a delete flag column is set', () => {
		expect(Object.keys(summaryOf())).not.toContain('flaggedAbsent');
		expect(summaryOf(0).flaggedAbsent).toBe(0);
		expect(summaryOf(2).flaggedAbsent).toBe(2);
	});
});
