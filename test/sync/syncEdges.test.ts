/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { MAX_CHUNK_SIZE } from '../../nodes/Fliplet/actions/entry/sync/description';
import { apiRequests, useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	queriesOf,
	READ_PATHS,
	runSync,
	storedData,
	storedEntries,
	useReadPath,
} from './fixtures';

const sandbox = useSandbox();

describe('Entry → Sync: settings checked before any request', () => {
	const cases: Array<[string, IDataObject, RegExp, RegExp]> = [
		[
			'a Run Hooks value that is not a hook kind',
			{ syncOptions: { runHooks: ['insert', 'delete'] } },
			/^Unknown hook kind "delete"$/,
			/"insert".*"update"/,
		],
		[
			'an unknown mode',
			{ syncMode: 'upsert' },
			/^Unknown sync mode "upsert"$/,
			/insertAndUpdate, insertOnly, updateOnly, mirror/,
		],
		[
			'a chunk size of 0',
			{ syncOptions: { chunkSize: 0 } },
			/^Chunk size 0 is not allowed$/,
			new RegExp(`from 1 to ${MAX_CHUNK_SIZE}`),
		],
		[
			'a chunk size above the most allowed',
			{ syncOptions: { chunkSize: MAX_CHUNK_SIZE + 1 } },
			new RegExp(`^Chunk size ${MAX_CHUNK_SIZE + 1} is not allowed$`),
			/whole number/,
		],
		[
			'a chunk size that is not whole',
			{ syncOptions: { chunkSize: 2.5 } },
			/^Chunk size 2.5 is not allowed$/,
			/whole number/,
		],
	];

	it.each(cases)('refuses %s', async (_name, parameters, message, description) => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'b@x.io' }], parameters);

		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(description);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('accepts the largest chunk size and both hook kinds', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', N: 1 }]);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'a@x.io', N: 2 },
				{ Email: 'b@x.io', N: 3 },
			],
			{ syncOptions: { chunkSize: MAX_CHUNK_SIZE, runHooks: ['insert', 'update'] } },
		);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, updated: 1 });
		expect(commitsOf(sandbox()).map((commit) => commit.body.runHooks)).toEqual([
			['insert', 'update'],
			['insert', 'update'],
		]);
	});
});

describe('Entry → Sync: typecast', () => {
	const cells: Array<[string, IDataObject[string]]> = [
		['2.25', 2.25],
		['-12.5', -12.5],
		['10', 10],
		['-3', -3],
		['0', 0],
		['TRUE', true],
		['False', false],
		['1.50', '1.50'],
		['007', '007'],
		['1e3', '1e3'],
		[' 4', ' 4'],
		['4 ', '4 '],
		['12a', '12a'],
		['2.', '2.'],
		['.5', '.5'],
		['--1', '--1'],
		['1.2.3', '1.2.3'],
		['12345678901234567890', '12345678901234567890'],
		['', ''],
		['yes', 'yes'],
	];

	it('stores text that is exactly a number or boolean as one, and leaves other text alone', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const row: IDataObject = { Email: 'a@x.io', Nested: { N: '2.25' } };
		cells.forEach(([text], column) => (row[`C${column}`] = text));
		const result = await runSync(sandbox(), id, [row], { syncOptions: { typecast: true } });

		expect(result.error).toBeUndefined();
		const expected: IDataObject = { Email: 'a@x.io', Nested: { N: '2.25' } };
		cells.forEach(([, value], column) => (expected[`C${column}`] = value));
		expect(storedData(sandbox(), id)).toEqual([expected]);
	});

	it('compares typecast values, so a sheet re-read as text changes nothing', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Price: 2.25, Paid: true }]);
		const sheet = [{ Email: 'a@x.io', Price: '2.25', Paid: 'TRUE' }];

		const typecast = await runSync(sandbox(), id, sheet, { syncOptions: { typecast: true } });
		expect(typecast.json[0]).toMatchObject({ unchanged: 1, updated: 0 });

		// Without the option too: the text equals what is stored once typed by the stored value.
		const asText = await runSync(sandbox(), id, sheet);
		expect(asText.json[0]).toMatchObject({ unchanged: 1, updated: 0 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', Price: 2.25, Paid: true }]);
	});
});

describe.each(READ_PATHS)('Entry → Sync: spreadsheet-friendly values (the %s read)', (path) => {
	useReadPath(path);
	const stored = [
		{ Email: 'ann@x.io', Age: 30, Active: true, Zip: '007', Note: 'x' },
		{ Email: 'bob@x.io', Age: 41, Active: false, Zip: '01234', Note: 'y' },
	];
	/** The same rows as a CSV file or a sheet gives them: every cell text. */
	const asCsv = (rows: IDataObject[]) =>
		rows.map((row) =>
			Object.fromEntries(Object.entries(row).map(([column, value]) => [column, String(value)])),
		);

	it('a re-sync of CSV text equal to the stored numbers and booleans updates nothing and keeps the types', async () => {
		const id = await dataSourceWith(sandbox(), stored);
		const result = await runSync(sandbox(), id, asCsv(stored));

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 0, inserted: 0, unchanged: 2 });
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(stored);
	});

	it('new values in a number or boolean column keep its type; other text is written as text', async () => {
		const id = await dataSourceWith(sandbox(), stored);
		const rows = [
			{ Email: 'ann@x.io', Age: '31', Active: 'FALSE', Zip: '008', Note: '12' },
			{ Email: 'cy@x.io', Age: '007', Active: 'yes', Zip: '123', Note: '1e5' },
			{ Email: 'dee@x.io', Age: '12345678901234567890', Active: 'true', Zip: '9', Note: 'z' },
			{ Email: 'eve@x.io', Age: '-2.5', Active: 'False', Zip: '', Note: 'TRUE' },
		];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, inserted: 3 });
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'ann@x.io', Age: 31, Active: false, Zip: '008', Note: '12' },
			stored[1],
			// "007", a 20-digit id and "yes" are not plain numbers or booleans: they stay text.
			{ Email: 'cy@x.io', Age: '007', Active: 'yes', Zip: '123', Note: '1e5' },
			{ Email: 'dee@x.io', Age: '12345678901234567890', Active: true, Zip: '9', Note: 'z' },
			// Columns of text keep text, whatever it looks like.
			{ Email: 'eve@x.io', Age: -2.5, Active: false, Zip: '', Note: 'TRUE' },
		]);
	});

	it('"007" into a column of numbers stays "007", as an update and as a new row', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'ann@x.io', Code: 7 }]);
		const result = await runSync(sandbox(), id, [
			{ Email: 'ann@x.io', Code: '007' },
			{ Email: 'bob@x.io', Code: '007' },
		]);

		expect(result.json[0]).toMatchObject({ updated: 1, inserted: 1 });
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'ann@x.io', Code: '007' },
			{ Email: 'bob@x.io', Code: '007' },
		]);
	});

	it('a column holding mixed values, or none yet, takes text as text unless Typecast is on', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Mixed: 1 },
			{ Email: 'bob@x.io', Mixed: 'one' },
		]);
		const rows = [{ Email: 'cy@x.io', Mixed: '3', Fresh: '4' }];
		await runSync(sandbox(), id, rows);
		expect(storedData(sandbox(), id)[2]).toEqual({ Email: 'cy@x.io', Mixed: '3', Fresh: '4' });

		await runSync(sandbox(), id, [{ Email: 'dee@x.io', Mixed: '3', Fresh: '4' }], {
			syncOptions: { typecast: true },
		});
		expect(storedData(sandbox(), id)[3]).toEqual({ Email: 'dee@x.io', Mixed: 3, Fresh: 4 });
	});
});

describe('Entry → Sync: spreadsheet-friendly values of new keys only', () => {
	const people = [
		{ Email: 'ann@x.io', Age: 30, Active: true },
		{ Email: 'bob@x.io', Age: 41, Active: false },
	];

	it('a read by key that meets no entry is followed by one look at the first entries, only for text to type', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const csv = await runSync(sandbox(), id, [{ Email: 'cy@x.io', Age: '25', Active: 'TRUE' }]);

		expect(csv.error).toBeUndefined();
		// The read of its key, the look for a key column, the look at the first entries, the
		// insert, the check.
		expect(csv.json[0]).toMatchObject({ inserted: 1, requests: 5 });
		const look = queriesOf(sandbox())[2].body;
		expect(look).toEqual({ type: 'select', order: [['id', 'ASC']], limit: 100 });
		expect(storedData(sandbox(), id)[2]).toEqual({ Email: 'cy@x.io', Age: 25, Active: true });

		// Typed values (JSON from another node) need no look; nor does text in a text column.
		sandbox().requests.length = 0;
		const json = await runSync(sandbox(), id, [{ Email: 'dee@x.io', Age: 26, Active: false }]);
		expect(json.json[0]).toMatchObject({ inserted: 1, requests: 3 });
		sandbox().requests.length = 0;
		const text = await runSync(sandbox(), id, [{ Email: 'eve@x.io', Name: 'Eve' }]);
		expect(text.json[0]).toMatchObject({ inserted: 1, requests: 3 });
	});
});

describe('Entry → Sync: key values that are not plain text', () => {
	const rows = [
		{ Ref: { a: 1, b: 2 }, N: 1 },
		{ Ref: { a: 2 }, N: 2 },
		{ Ref: [1, 2], N: 3 },
		{ Ref: 5, N: 4 },
		{ Ref: true, N: 5 },
	];

	it('keeps objects and lists apart as keys and matches them again on the next run', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const first = await runSync(sandbox(), id, rows, { keyColumns: 'Ref' });
		expect(first.json[0]).toMatchObject({ inserted: 5, skipped: [] });

		const changed = rows.map((row) => (row.N === 2 ? { ...row, N: 20 } : row));
		const second = await runSync(sandbox(), id, changed, { keyColumns: 'Ref' });
		expect(second.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 4 });
		expect(storedData(sandbox(), id)).toEqual(changed);
	});

	it('matches a number key with the same number as text, trimmed', async () => {
		const id = await dataSourceWith(sandbox(), [{ Ref: 5, N: 1 }]);
		const result = await runSync(sandbox(), id, [{ Ref: ' 5 ', N: 2 }], { keyColumns: 'Ref' });

		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1 });
	});

	it('treats blank, null and empty keys as missing', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Ref: '   ', N: 1 },
				{ Ref: null, N: 2 },
				{ Ref: '', N: 3 },
				{ Ref: 'x', N: 4 },
			],
			{ keyColumns: 'Ref' },
		);

		expect(result.json[0]).toMatchObject({
			inserted: 1,
			skipped: [0, 1, 2].map((itemIndex) => ({
				itemIndex,
				reason: 'Missing key column "Ref"',
			})),
		});
		expect(storedData(sandbox(), id)).toEqual([{ Ref: 'x', N: 4 }]);
	});
});

describe('Entry → Sync: changes inside nested values', () => {
	const stored: IDataObject[] = [
		{ Email: 'a@x.io', Obj: { x: 1, y: [1, 2] } },
		{ Email: 'b@x.io', Obj: { x: 1, y: [1, 2] } },
		{ Email: 'c@x.io', Obj: { x: 1 } },
		{ Email: 'd@x.io', List: [1, 2, 3] },
		{ Email: 'e@x.io', Obj: {} },
		{ Email: 'f@x.io', Obj: [] },
		{ Email: 'g@x.io', Obj: { x: null } },
		{ Email: 'h@x.io', List: [{ k: 1 }] },
	];
	/** Same values in another key order, or truly changed ones. */
	const input: IDataObject[] = [
		{ Email: 'a@x.io', Obj: { y: [1, 2], x: 1 } },
		{ Email: 'b@x.io', Obj: { x: 1, y: [1, 3] } },
		{ Email: 'c@x.io', Obj: { x: 1, z: 2 } },
		{ Email: 'd@x.io', List: [1, 2] },
		{ Email: 'e@x.io', Obj: null },
		{ Email: 'f@x.io', Obj: {} },
		{ Email: 'g@x.io', Obj: { x: null } },
		{ Email: 'h@x.io', List: [{ k: 2 }] },
	];
	const changed = ['b@x.io', 'c@x.io', 'd@x.io', 'e@x.io', 'f@x.io', 'h@x.io'];

	/** Each row also gets a column of its own, so rows come in `shapes` sets of columns. */
	const withShapes = (rows: IDataObject[], shapes: number) =>
		rows.map((row, index) => ({ ...row, [`Extra${index % shapes}`]: 'same' }));

	it.each([
		['one set of columns', 1],
		['a few sets of columns', 3],
		['many sets of columns', stored.length],
	])('updates exactly the changed rows when rows come in %s', async (_name, shapes) => {
		const id = await dataSourceWith(sandbox(), withShapes(stored, shapes));
		const rows = withShapes(input, shapes);
		const result = await runSync(sandbox(), id, rows);

		expect(result.json[0]).toMatchObject({
			updated: changed.length,
			unchanged: input.length - changed.length,
		});
		const keyOf = new Map(
			storedEntries(sandbox(), id).map((entry) => [entry.id, entry.data.Email]),
		);
		const updated = commitsOf(sandbox()).flatMap((commit) =>
			commit.body.entries.map((entry: any) => keyOf.get(entry.id)),
		);
		expect(updated.sort()).toEqual(changed);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('in replace mode a deep change or a column added or removed is a change; key order is not', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', Obj: { b: 1, a: [{ y: 1, x: 2 }] } },
			{ Email: 'b@x.io', Obj: { b: 1, a: [{ y: 1, x: 2 }] } },
			{ Email: 'c@x.io', N: 1 },
			{ Email: 'd@x.io', N: 1, M: 2 },
		]);
		const rows = [
			{ Obj: { a: [{ x: 2, y: 1 }], b: 1 }, Email: 'a@x.io' },
			{ Email: 'b@x.io', Obj: { b: 1, a: [{ y: 1, x: 3 }] } },
			{ Email: 'c@x.io', N: 1, M: 2 },
			{ Email: 'd@x.io', N: 1 },
		];
		const result = await runSync(sandbox(), id, rows, {
			syncOptions: { updateStyle: 'replace' },
		});

		expect(result.json[0]).toMatchObject({ updated: 3, unchanged: 1 });
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'a@x.io', Obj: { b: 1, a: [{ y: 1, x: 2 }] } },
			...rows.slice(1),
		]);
	});
});

describe('Entry → Sync: mirror deletes', () => {
	it('deletes absent keys, extra entries of a key and keyless entries in id order', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'dup@x.io', N: 1 },
			{ Name: 'no key' },
			{ Email: 'gone1@x.io' },
			{ Email: 'dup@x.io', N: 1 },
			{ Email: 'gone2@x.io' },
			{ Email: 'keep@x.io' },
		]);
		const [dup, keyless, gone1, extraDup, gone2, keep] = storedEntries(sandbox(), id);
		const result = await runSync(
			sandbox(),
			id,
			[{ Email: 'dup@x.io', N: 1 }, { Email: 'keep@x.io' }],
			{ syncMode: 'mirror', maxDeleteShare: 100, syncOptions: { outputRows: true } },
		);

		const expectedIds = [keyless.id, gone1.id, extraDup.id, gone2.id];
		expect(result.json[0]).toMatchObject({ deleted: 4, unchanged: 2 });
		const deletes = commitsOf(sandbox()).map((commit) => commit.body.delete);
		expect(deletes).toEqual([expectedIds]);
		expect(result.json.slice(1).map((row) => [row.action, row.id])).toEqual(
			expectedIds.map((entryId) => ['delete', entryId]),
		);
		expect(storedEntries(sandbox(), id).map((entry) => entry.id)).toEqual([dup.id, keep.id]);
	});

	it('refuses to delete every entry when no input key matches one, and says so', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }, { Email: 'b@x.io' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'c@x.io' }, { Email: 'd@x.io' }], {
			syncMode: 'mirror',
		});

		expect(result.error?.message).toBe('Mirror would delete all 2 entries of the data source');
		expect(result.error?.description).toMatch(
			/^None of the 2 input rows has the key of an existing entry\./,
		);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('deletes part of the data source without asking', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }, { Email: 'b@x.io' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }], { syncMode: 'mirror' });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 1, unchanged: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io' }]);
	});
});

describe('Entry → Sync: column names', () => {
	it('compares a column whose name has a dot as that column, not a nested path', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', 'v.1': 'x', v: { 1: 'y' } }]);
		const unchanged = await runSync(sandbox(), id, [{ Email: 'a@x.io', 'v.1': 'x' }]);
		expect(unchanged.json[0]).toMatchObject({ unchanged: 1, updated: 0 });

		const changed = await runSync(sandbox(), id, [{ Email: 'a@x.io', 'v.1': 'y' }]);
		expect(changed.json[0]).toMatchObject({ unchanged: 0, updated: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', 'v.1': 'y', v: { 1: 'y' } }]);
	});
});
