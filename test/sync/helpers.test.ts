import {
	approxJsonSize,
	chunkBy,
	clientIdOf,
	commitBody,
	planCommits,
} from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { rowChanges } from '../../nodes/Fliplet/actions/entry/sync/compare';
import { diffRows, startDiff, type SyncPlan } from '../../nodes/Fliplet/actions/entry/sync/diff';
import { buildOutput, landedText } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { jsonEqual } from '../../nodes/Fliplet/actions/entry/sync/equal';
import { rowKey } from '../../nodes/Fliplet/actions/entry/sync/keys';
import { columnsFor } from '../../nodes/Fliplet/actions/entry/sync/attributes';
import type { SyncSettings } from '../../nodes/Fliplet/actions/entry/sync/settings';
import { typecastValue } from '../../nodes/Fliplet/helpers/spreadsheetText';
import { typecastRow } from '../../nodes/Fliplet/actions/entry/sync/typecast';
import { mayHaveLanded } from '../../nodes/Fliplet/actions/entry/sync/mayHaveLanded';
import { toNodeApiError, type ApiFailure } from '../../nodes/Fliplet/transport/errors';
import { insertsOf, options, planOutcome, rows } from './planInputs';
import { stubNode } from '../harness/stubNode';
import { NodeOperationError } from 'n8n-workflow';

describe('Sync keys', () => {
	it('gives an object the same key whatever order its keys came in', () => {
		const key = rowKey(
			{ Place: { city: 'Rome', zip: { a: 1, b: [{ y: 2, x: 1 }] } } },
			['Place'],
			false,
		);
		expect(
			rowKey({ Place: { zip: { b: [{ x: 1, y: 2 }], a: 1 }, city: 'Rome' } }, ['Place'], false),
		).toEqual(key);
		expect(key).toEqual({ key: '{"city":"Rome","zip":{"a":1,"b":[{"x":1,"y":2}]}}' });
		expect(rowKey({ Place: [2, 1] }, ['Place'], false)).not.toEqual(
			rowKey({ Place: [1, 2] }, ['Place'], false),
		);
	});

	it('builds text keys, trimmed, optionally ignoring case', () => {
		expect(rowKey({ Id: 5 }, ['Id'], false)).toEqual({ key: '5' });
		expect(rowKey({ Id: ' 5 ' }, ['Id'], false)).toEqual({ key: '5' });
		expect(rowKey({ Email: 'A@x.io' }, ['Email'], true)).toEqual({ key: 'a@x.io' });
		expect(rowKey({ Email: 'A@x.io' }, ['Email'], false)).toEqual({ key: 'A@x.io' });
	});

	it('keeps multi-column keys apart even when the values contain the separator', () => {
		const a = rowKey({ A: 'x","y', B: 'z' }, ['A', 'B'], false);
		const b = rowKey({ A: 'x', B: 'y","z' }, ['A', 'B'], false);
		expect(a).not.toEqual(b);
	});

	it('reports which key columns are empty or absent', () => {
		expect(rowKey({ A: '', B: null }, ['A', 'B', 'C'], false)).toEqual({
			missing: ['A', 'B', 'C'],
		});
		expect(rowKey({ A: 0 }, ['A'], false)).toEqual({ key: '0' });
	});
});

describe('Sync typecast', () => {
	it('turns exact numbers and booleans into values and leaves lossy text alone', () => {
		expect(typecastValue('42')).toBe(42);
		expect(typecastValue('-3.5')).toBe(-3.5);
		expect(typecastValue('TRUE')).toBe(true);
		expect(typecastValue('false')).toBe(false);
		for (const text of ['007', '1.50', '1e3', ' 4', '', 'abc', '12345678901234567890', '+1']) {
			expect(typecastValue(text)).toBe(text);
		}
		expect(typecastValue(7)).toBe(7);
		expect(typecastRow({ a: '1', b: { c: '2' } })).toEqual({ a: 1, b: { c: '2' } });
	});
});

describe('Sync jsonEqual', () => {
	it('compares an undefined array element as the null JSON makes of it', () => {
		expect(jsonEqual([undefined, 1], [null, 1])).toBe(true);
		expect(jsonEqual([null], [undefined])).toBe(true);
		expect(jsonEqual([undefined], [0])).toBe(false);
		expect(jsonEqual({ a: undefined }, { a: null })).toBe(false);
	});

	it('compares structure, not key order or identity', () => {
		expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
		expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
		expect(jsonEqual([1, 2], [2, 1])).toBe(false);
		expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
		expect(jsonEqual(null, {})).toBe(false);
	});
});

describe('Sync diff', () => {
	const existing = [
		{ id: 1, data: { Email: 'a@x.io', Name: 'Ann', Extra: 'kept' } },
		{ id: 2, data: { Email: 'b@x.io', Name: 'Bob' } },
		{ id: 3, data: { Email: 'c@x.io', Name: 'Cy' } },
	];

	it('inserts new keys, updates changed rows and counts the rest as unchanged', () => {
		const plan = diffRows(
			rows(
				{ Email: 'a@x.io', Name: 'Ann' },
				{ Email: 'b@x.io', Name: 'Bobby' },
				{ Email: 'd@x.io', Name: 'Di' },
			),
			existing,
			options(),
		);
		expect(plan.unchanged).toBe(1);
		expect(plan.updates).toEqual([
			{
				itemIndex: 1,
				key: 'b@x.io',
				id: 2,
				data: { Email: 'b@x.io', Name: 'Bobby' },
				cells: { Name: 'Bobby' },
			},
		]);
		expect(insertsOf(plan)).toEqual([
			{ itemIndex: 2, key: 'd@x.io', data: { Email: 'd@x.io', Name: 'Di' } },
		]);
		expect(plan.deletes).toEqual([]);
	});

	it('in replace mode a column missing from the row is a change', () => {
		const plan = diffRows(
			rows({ Email: 'a@x.io', Name: 'Ann' }),
			existing,
			options({ merge: false }),
		);
		expect(plan.updates.map((row) => row.id)).toEqual([1]);
	});

	it('with foldSharedKeys applies rows sharing a key in input order as one write', () => {
		const input = rows(
			{ Email: 'a@x.io', Name: 'Al', Age: 1 },
			{ Email: 'n@x.io', Name: 'New' },
			{ Email: 'A@X.IO', Name: 'Ann' },
			{ Email: 'n@x.io', Age: 3 },
		);
		const [first, second] = input;
		const merged = diffRows(
			input,
			existing,
			options({ ignoreKeyCase: true, foldSharedKeys: true }),
		);
		expect(merged.skipped).toEqual([]);
		expect(merged.updates).toEqual([
			// The last row's values stand, the key's spelling too.
			expect.objectContaining({ itemIndex: 0, id: 1, cells: { Email: 'A@X.IO', Age: 1 } }),
		]);
		expect(insertsOf(merged)).toEqual([
			{ itemIndex: 1, key: 'n@x.io', data: { Email: 'n@x.io', Name: 'New', Age: 3 } },
		]);
		expect(merged.foldedInto).toEqual(
			new Map([
				[2, 0],
				[3, 1],
			]),
		);
		// The input items are left as given: the write of a key is a new object.
		expect([first, second]).toEqual([
			{ Email: 'a@x.io', Name: 'Al', Age: 1 },
			{ Email: 'n@x.io', Name: 'New' },
		]);

		const replaced = diffRows(
			rows({ Email: 'n@x.io', Name: 'New' }, { Email: 'n@x.io', Age: 3 }),
			[],
			options({ merge: false, foldSharedKeys: true }),
		);
		expect(insertsOf(replaced)).toEqual([
			{ itemIndex: 0, key: 'n@x.io', data: { Email: 'n@x.io', Age: 3 } },
		]);
	});

	it('with everyMatch updates every entry holding a key and takes none for a stray', () => {
		const entries = [
			{ id: 4, data: { Email: 'a@x.io', Name: 'Old' } },
			{ id: 5, data: { Email: 'b@x.io', Name: 'Bob' } },
			{ id: 6, data: { Email: 'a@x.io', Name: 'Ann' } },
			{ id: 7, data: { Email: 'a@x.io', Name: 'Older' } },
		];
		const input = rows({ Email: 'a@x.io', Name: 'Ann' }, { Email: 'b@x.io', Name: 'Bo' });
		const plan = diffRows(input, entries, options({ everyMatch: true }));
		expect(plan.updates.map(({ itemIndex, id }) => [itemIndex, id])).toEqual([
			[0, 4],
			[0, 7],
			[1, 5],
		]);
		expect(plan.unchanged).toBe(1);
		expect(plan.shared).toEqual([]);
		expect(plan.matched).toBe(2);
		// Without it the first entry of the key is updated and the key is checked for repair.
		const once = diffRows(input, entries, options());
		expect(once.updates.map(({ id }) => id)).toEqual([4, 5]);
		expect(once.shared).toEqual([0]);
	});

	it('types new values by the columns of the entries read, and by the types given beside', () => {
		const entries = [
			{ id: 1, data: { Email: 'a@x.io', Age: 30, Paid: true, Zip: '007', Mixed: 1 } },
			{ id: 2, data: { Email: 'b@x.io', Age: 41, Paid: false, Zip: '012', Mixed: 'x' } },
		];
		const input = rows(
			{ Email: 'a@x.io', Age: '30', Paid: 'FALSE', Zip: '7', Mixed: '2' },
			{ Email: 'c@x.io', Age: '25', Paid: 'true', Zip: '9', Mixed: '3', Score: '4' },
		);
		const given = input[1];
		const plan = diffRows(
			input,
			entries,
			options({
				columnTypes: new Map([
					['Score', 'number'],
					['Mixed', 'number'],
				]),
			}),
		);
		expect(plan.updates).toEqual([
			expect.objectContaining({ id: 1, cells: { Paid: false, Zip: '7', Mixed: '2' } }),
		]);
		expect(insertsOf(plan)[0].data).toEqual({
			Email: 'c@x.io',
			Age: 25,
			Paid: true,
			Zip: '9',
			// Mixed values in the entries read win over the type given beside.
			Mixed: '3',
			Score: 4,
		});
		expect(given).toEqual(expect.objectContaining({ Age: '25', Score: '4' }));
	});

	it('skips every row of a duplicate key and rows without a key', () => {
		const plan = diffRows(
			rows({ Email: 'a@x.io' }, { Name: 'no key' }, { Email: 'A@X.IO' }, { Email: 'e@x.io' }),
			[],
			options({ ignoreKeyCase: true }),
		);
		expect(plan.skipped).toEqual([
			{ itemIndex: 0, reason: 'Duplicate key (also in item 2)', key: 'a@x.io' },
			{ itemIndex: 1, reason: 'Missing key column "Email"' },
			{ itemIndex: 2, reason: 'Duplicate key (also in item 0)', key: 'a@x.io' },
		]);
		expect(insertsOf(plan).map((row) => row.itemIndex)).toEqual([3]);
	});

	it('mirror deletes absent keys, extra entries of a key and keyless entries, not ambiguous ones', () => {
		const plan = diffRows(
			rows({ Email: 'a@x.io', Name: 'Ann' }, { Email: 'c@x.io' }, { Email: 'c@x.io' }),
			[
				...existing,
				{ id: 4, data: { Email: 'a@x.io' } },
				{ id: 5, data: { Name: 'nobody' } },
				{ id: 6, data: { Email: 'c@x.io' } },
			],
			options({ mode: 'mirror' }),
		);
		expect(plan.deletes).toEqual([
			{ id: 2, key: 'b@x.io' },
			{ id: 4, key: 'a@x.io' },
			{ id: 5, key: null },
		]);
	});

	it('insert-only leaves changed rows alone', () => {
		const plan = diffRows(
			rows({ Email: 'b@x.io', Name: 'Bobby' }, { Email: 'z@x.io' }),
			existing,
			options({ mode: 'insertOnly' }),
		);
		expect(plan.updates).toEqual([]);
		expect(plan.unchanged).toBe(1);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['z@x.io']);
	});
});

describe('Sync change test', () => {
	it('merging compares only the columns the row has, by value, whatever the key order', () => {
		const stored = { Email: 'a', Name: 'Ann', Tags: { b: [1, 2], a: null }, Photo: 'x.png' };
		expect(rowChanges(stored, { Name: 'Ann', Email: 'a' }, true)).toBeUndefined();
		expect(rowChanges(stored, { Tags: { a: null, b: [1, 2] } }, true)).toBeUndefined();
		expect(rowChanges(stored, { Tags: { a: null, b: [2, 1] } }, true)).toEqual({
			Tags: { a: null, b: [2, 1] },
		});
		expect(rowChanges(stored, { Email: 'a', Name: 'Anne' }, true)).toEqual({ Name: 'Anne' });
		expect(rowChanges(stored, { Email: 'a', Age: null }, true)).toEqual({ Age: null });
		expect(rowChanges(stored, { Email: 'a', Score: '1', Name: 'Al' }, true)).toEqual({
			Score: '1',
			Name: 'Al',
		});
		expect(rowChanges({}, {}, true)).toBeUndefined();
	});

	it('text equal to a stored number or boolean once typed changes nothing; other text does', () => {
		const stored = { Score: 1, Paid: true, Zip: 7, Ref: '5' };
		expect(rowChanges(stored, { Score: '1', Paid: 'TRUE', Ref: '5' }, true)).toBeUndefined();
		expect(rowChanges(stored, { Score: '01', Zip: '007', Paid: 'yes' }, true)).toEqual({
			Score: '01',
			Zip: '007',
			Paid: 'yes',
		});
		expect(rowChanges(stored, { Score: '2', Ref: 5 }, true)).toEqual({ Score: '2', Ref: 5 });
		expect(rowChanges({ Score: '1' }, { Score: 1 }, true)).toEqual({ Score: 1 });
		// Replacing: the same data once typed is unchanged; a change sends the stored types back.
		expect(rowChanges(stored, { Score: '1', Paid: 'true', Zip: '7', Ref: '5' }, false)).toBe(
			undefined,
		);
		expect(rowChanges(stored, { Score: '1', Paid: 'true', Zip: '8', Ref: '5' }, false)).toEqual({
			Score: 1,
			Paid: true,
			Zip: '8',
			Ref: '5',
		});
	});

	it('replacing compares the whole data, and sends the whole row', () => {
		const row = { Email: 'a' };
		expect(rowChanges({ Email: 'a', Photo: 'x' }, row, false)).toBe(row);
		expect(rowChanges({ Email: 'a' }, { Email: 'a', Photo: 'x' }, false)).toEqual({
			Email: 'a',
			Photo: 'x',
		});
		expect(
			rowChanges({ Email: 'a', n: { b: 1, a: 2 } }, { n: { a: 2, b: 1 }, Email: 'a' }, false),
		).toBeUndefined();
	});

	it('compares each entry with its row as it arrives', () => {
		const diff = startDiff(
			rows({ Email: 'a', Name: 'Ann' }, { Email: 'b', Name: 'Bob' }, { Email: 'c' }),
			options(),
		);
		diff.visit(7, { Email: 'a', Name: 'Ann' });
		diff.visit(8, { Email: 'b', Name: 'Bobby' });
		const plan = diff.finish();
		expect(plan.existingCount).toBe(2);
		expect(plan.unchanged).toBe(1);
		expect(plan.updates).toEqual([
			{ itemIndex: 1, key: 'b', id: 8, data: { Email: 'b', Name: 'Bob' }, cells: { Name: 'Bob' } },
		]);
		expect(insertsOf(plan).map((row) => row.key)).toEqual(['c']);
	});

	it('lists updates and skipped rows in input order, whatever the order of the entries', () => {
		const plan = diffRows(
			rows(
				{ Email: 'b', Name: 'B2', At: 'later' },
				{ Email: 'x' },
				{ Email: 'x' },
				{ Email: 'a', Name: 'A2', At: 'soon' },
				{ Email: 'c', Name: 'C2', At: 'never' },
			),
			[
				{ id: 1, data: { Email: 'c', Name: 'C' } },
				{ id: 2, data: { Email: 'a', Name: 'A' } },
				{ id: 3, data: { Email: 'b', Name: 'B' } },
			],
			options({ timestampColumn: 'At' }),
		);
		expect(plan.updates).toEqual([]);
		expect(plan.skipped.map((row) => row.itemIndex)).toEqual([0, 1, 2, 3, 4]);

		const updates = diffRows(
			rows({ Email: 'b', Name: 'B2' }, { Email: 'c', Name: 'C2' }, { Email: 'a', Name: 'A2' }),
			[
				{ id: 1, data: { Email: 'c', Name: 'C' } },
				{ id: 2, data: { Email: 'a', Name: 'A' } },
				{ id: 3, data: { Email: 'b', Name: 'B' } },
			],
			options(),
		).updates;
		expect(updates.map((row) => [row.itemIndex, row.id])).toEqual([
			[0, 3],
			[1, 1],
			[2, 2],
		]);
	});

	it('updates the oldest entry of a key and leaves later ones alone outside mirror mode', () => {
		const plan = diffRows(
			rows({ Email: 'a', Name: 'New' }),
			[
				{ id: 3, data: { Email: 'a', Name: 'Old' } },
				{ id: 9, data: { Email: 'a', Name: 'Older' } },
			],
			options(),
		);
		expect(plan.updates.map((row) => row.id)).toEqual([3]);
		expect(plan.deletes).toEqual([]);
		expect(plan.unchanged).toBe(0);
	});
});

describe('Sync chunks', () => {
	it('estimates the JSON size of a row without serializing it', () => {
		const row = { Email: 'ann@x.io', Age: 30, Active: true, Gone: null, Address: { city: 'Rome' } };
		expect(approxJsonSize(row)).toBe(JSON.stringify(row).length);
	});

	it('splits by count and by bytes', () => {
		expect(chunkBy([1, 2, 3, 4, 5], 2, Infinity, () => 1)).toEqual([[1, 2], [3, 4], [5]]);
		expect(chunkBy(['aaaa', 'bb', 'cc', 'd'], 10, 5, (s) => s.length)).toEqual([
			['aaaa'],
			['bb', 'cc', 'd'],
		]);
		expect(chunkBy(['toolarge'], 10, 2, (s) => s.length)).toEqual([['toolarge']]);
	});

	it('makes only the first runs when asked for so many', () => {
		const count = (maxChunks: number) =>
			chunkBy([1, 2, 3, 4, 5], 2, Infinity, () => 1, { maxChunks });
		expect(count(2)).toEqual([
			[1, 2],
			[3, 4],
		]);
		expect(count(3)).toEqual([[1, 2], [3, 4], [5]]);
		expect(count(0)).toEqual([]);
	});

	it('plans updates, then inserts, then one final delete commit; inserts and commits running hooks are not idempotent', () => {
		const plan = diffRows(
			rows({ Email: 'a@x.io', Name: 'New' }, { Email: 'n1' }, { Email: 'n2' }, { Email: 'n3' }),
			[
				{ id: 1, data: { Email: 'a@x.io' } },
				{ id: 9, data: { Email: 'gone' } },
			],
			options({ mode: 'mirror' }),
		);
		const commitOptions = { chunkSize: 2, merge: true, runHooks: ['insert'], outputRows: true };
		const commits = planCommits(plan, commitOptions);
		expect(commits.map((commit) => [commit.kind, commit.idempotent])).toEqual([
			['update', false],
			['insert', false],
			['insert', false],
			['delete', true],
		]);
		const withoutHooks = planCommits(plan, { ...commitOptions, runHooks: [] });
		expect(withoutHooks.map((commit) => [commit.kind, commit.idempotent])).toEqual([
			['update', true],
			['insert', false],
			['insert', false],
			['delete', true],
		]);
		expect(commitBody(commits[1], plan.rows, commitOptions)).toEqual({
			entries: [
				{ data: { Email: 'n1' }, clientId: clientIdOf(1) },
				{ data: { Email: 'n2' }, clientId: clientIdOf(2) },
			],
			append: true,
			extend: true,
			returnEntries: false,
			runHooks: ['insert'],
		});
		expect(commitBody(commits[3], plan.rows, commitOptions)).toEqual({
			entries: [],
			append: true,
			delete: [9],
			returnEntries: false,
		});
	});
});

describe('Sync read attributes', () => {
	it('reads only the compared columns when merging, whole data when replacing', () => {
		const input = rows({ Email: 'a', Name: 'b' }, { Email: 'c', Age: 3 });
		const settings = (merge: boolean, more: object = {}) =>
			({ keyColumns: ['Email'], merge, updateAll: false, ...more }) as SyncSettings;
		expect(columnsFor(input, settings(true))).toEqual(['Email', 'Name', 'Age']);
		expect(columnsFor(input, settings(false))).toBe('all');
		expect(columnsFor(rows({ 'a.b': 1 }), settings(true))).toBe('all');
		// Updating every matched row compares nothing: only the key (and timestamp) columns.
		expect(
			columnsFor(input, settings(false, { updateAll: true, timestampColumn: 'Modified' })),
		).toEqual(['Email', 'Modified']);
	});
});

describe('Sync output', () => {
	it('says so in the row item when the API returned no ids for new entries', () => {
		const plan = diffRows(rows({ Email: 'a' }), [], options());
		const commits = planCommits(plan, {
			chunkSize: 10,
			merge: true,
			runHooks: [],
			outputRows: false,
		});
		const output = buildOutput({
			plan,
			commits,
			outcome: planOutcome({
				landed: commits,
				landedAt: commits.map((_, at) => at),
				unknown: [],
				unknownAt: [],
				newIds: new Map(),
			}),
			mode: 'insertAndUpdate',
			requests: 2,
			itemCount: 1,
			outputRows: true,
		});
		expect(output[1].json).toEqual({
			action: 'insert',
			id: null,
			key: 'a',
			data: { Email: 'a' },
			idNote: expect.stringContaining('did not return the id'),
		});
		expect(output[1].pairedItem).toEqual({ item: 0 });
	});
});

describe('Sync output of commits that may have landed', () => {
	/** The commits of a plan, one row each. */
	const oneRowEach = (plan: SyncPlan, outputRows = false) =>
		planCommits(plan, { chunkSize: 1, merge: true, runHooks: [], outputRows });

	it('counts their rows apart and marks their row items, in plan order after those that landed', () => {
		const plan = diffRows(
			rows({ Email: 'a', N: 1 }, { Email: 'b', N: 2 }, { Email: 'c' }),
			[
				{ id: 1, data: { Email: 'a', N: 0 } },
				{ id: 2, data: { Email: 'b', N: 0 } },
				{ id: 3, data: { Email: 'gone' } },
			],
			options({ mode: 'mirror' }),
		);
		const commits = oneRowEach(plan, true);
		// Updates a, b; insert c; delete 3.
		expect(commits.map((commit) => commit.kind)).toEqual(['update', 'update', 'insert', 'delete']);
		const unknownAt = [1, 2, 3];
		const output = buildOutput(
			{
				plan,
				commits,
				outcome: planOutcome({
					landed: [commits[0]],
					landedAt: [0],
					unknown: unknownAt.map((at) => commits[at]),
					unknownAt,
					newIds: new Map(),
				}),
				mode: 'mirror',
				requests: 5,
				itemCount: 3,
				outputRows: true,
			},
			{ error: 'failed' },
		);
		expect(output[0].json).toMatchObject({
			updated: 1,
			inserted: 0,
			deleted: 0,
			commits: 1,
			mayHaveLanded: { commits: 3, inserted: 1, updated: 1, deleted: 1 },
			error: 'failed',
		});
		expect(output.slice(1).map((item) => item.json)).toEqual([
			{ action: 'update', id: 1, key: 'a', data: { Email: 'a', N: 1 } },
			{ action: 'update', id: 2, key: 'b', data: { Email: 'b', N: 2 }, mayHaveLanded: true },
			{
				action: 'insert',
				id: null,
				key: 'c',
				data: { Email: 'c' },
				mayHaveLanded: true,
				idNote: expect.stringMatching(/^The commit of this row failed after being sent/),
			},
			{ action: 'delete', id: 3, key: 'gone', mayHaveLanded: true },
		]);
	});

	it('names several of them in the plural', () => {
		const plan = diffRows(rows({ Email: 'a' }, { Email: 'b' }, { Email: 'c' }), [], options());
		const commits = oneRowEach(plan);
		const outcome = planOutcome({
			landed: [commits[2]],
			landedAt: [2],
			unknown: commits.slice(0, 2),
			unknownAt: [0, 1],
			newIds: new Map(),
		});
		expect(landedText(outcome, 3)).toBe(
			'Commit 3 of 3 landed (1 inserted, 0 updated, 0 deleted). Commits 1–2 of 3 may have landed (2 inserted, 0 updated, 0 deleted): they failed after being sent (a server error, a timeout or a lost answer), which can happen after the server stored them',
		);
	});

	it('gives a run that did not fail no such count', () => {
		const plan = diffRows(rows({ Email: 'a' }), [], options());
		const commits = oneRowEach(plan);
		const outcome = planOutcome({
			landed: commits,
			landedAt: [0],
			unknown: [],
			unknownAt: [],
			newIds: new Map(),
		});
		const input = {
			plan,
			commits,
			outcome,
			mode: 'insertAndUpdate' as const,
			requests: 2,
			itemCount: 1,
			outputRows: false,
		};
		expect(buildOutput(input)[0].json).not.toHaveProperty('mayHaveLanded');
		expect(buildOutput({ ...input, outcome: undefined })[0].json).not.toHaveProperty(
			'mayHaveLanded',
		);
	});
});

describe('Sync: whether a failed commit may have landed, from what the transport recorded', () => {
	const node = stubNode();
	const failure = (idempotent: boolean, details: Partial<ApiFailure>) =>
		toNodeApiError(node, {
			method: 'POST',
			path: '/v1/data-sources/1/commit',
			attempts: 1,
			idempotent,
			...details,
		});

	it.each([
		['an insert answered 502', false, { status: 502, mayHaveBeenProcessed: true }, true],
		[
			'an insert whose connection was lost',
			false,
			{ networkCode: 'ECONNRESET', mayHaveBeenProcessed: true },
			true,
		],
		[
			'an insert whose connection was refused',
			false,
			{ networkCode: 'ECONNREFUSED', mayHaveBeenProcessed: false },
			false,
		],
		['an insert refused 400', false, { status: 400 }, false],
		['an insert refused 429 after waiting', false, { status: 429, attempts: 9 }, false],
		[
			'an update said never to have reached the server',
			true,
			{ status: 503, mayHaveBeenProcessed: false },
			false,
		],
		['an update lost on the network', true, { networkCode: 'ECONNRESET' }, true],
		['an update answered 500 after its retries', true, { status: 500, attempts: 4 }, true],
		['an update answered 500 with no retry left', true, { status: 500, attempts: 1 }, true],
		['an update refused 499 at once', true, { status: 499 }, false],
		['an update refused 404 after a retry', true, { status: 404, attempts: 2 }, true],
		['an update refused 404 at once', true, { status: 404, attempts: 1 }, false],
	] as Array<[string, boolean, Partial<ApiFailure>, boolean]>)(
		'%s',
		(_name, idempotent, details, expected) => {
			expect(mayHaveLanded(failure(idempotent, details), idempotent)).toBe(expected);
		},
	);

	it('a failure with no API response was never sent', () => {
		expect(mayHaveLanded(new NodeOperationError(node, 'A body JSON cannot carry'), false)).toBe(
			false,
		);
		expect(mayHaveLanded(new Error('boom'), true)).toBe(false);
		expect(mayHaveLanded(Object.assign(new Error('odd'), { errorResponse: 'text' }), true)).toBe(
			false,
		);
		expect(mayHaveLanded(Object.assign(new Error('odd'), { errorResponse: null }), true)).toBe(
			false,
		);
	});

	it('an update whose record has no attempts counts as sent once', () => {
		const error = Object.assign(new Error('odd'), { errorResponse: { status: 404 } });
		expect(mayHaveLanded(error, true)).toBe(false);
	});
});
