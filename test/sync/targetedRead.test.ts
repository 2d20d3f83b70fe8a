import type { IDataObject } from 'n8n-workflow';

import { apiRequests, useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	queriesOf,
	runSync,
	seededDataSource,
	store,
	storedData,
	storedEntries,
	useReadSizes,
} from './fixtures';

const sandbox = useSandbox();

const ENTRIES = 100_000;
const person = (n: number): IDataObject => ({ Email: `user${n}@x.io`, Name: `User ${n}`, N: n });

/** The stored data, checked against the seed with `changes` (by entry position) and `added`. */
function expectStored(id: number, changes: Map<number, IDataObject>, added: IDataObject[]) {
	const stored = storedData(sandbox(), id);
	expect(stored).toHaveLength(ENTRIES + added.length);
	for (let n = 0; n < ENTRIES; n++) {
		const expected = changes.get(n) ?? person(n);
		if (stored[n].Email !== expected.Email || stored[n].N !== expected.N)
			expect({ n, stored: stored[n] }).toEqual({ n, stored: expected });
	}
	expect(stored.slice(ENTRIES)).toEqual(added);
}

describe(`Entry → Sync into ${ENTRIES.toLocaleString('en')} entries reads only what it needs`, () => {
	it('1 changed row: 2 requests (the read of its key, the update)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const row = { ...person(77_777), N: -1 };
		const result = await runSync(sandbox(), id, [row]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, inserted: 0, requests: 2 });
		expect(apiRequests(sandbox())).toHaveLength(2);
		expectStored(id, new Map([[77_777, row]]), []);
	});

	it('1 new row: 4 requests (its key, the look for a key column, the insert, the check)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const row = person(ENTRIES);
		const result = await runSync(sandbox(), id, [row]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, requests: 4 });
		expect(apiRequests(sandbox())).toHaveLength(4);
		// The look for a key column reads one entry, not the data source.
		expect(queriesOf(sandbox())[1].body).toMatchObject({ limit: 1 });
		expectStored(id, new Map(), [row]);
	});

	it('1 new row once a run of this n8n process saw the key column: 3 requests (its key, the insert, the check)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		// The run before (e.g. the web hook's previous form submission) updated an entry.
		const before = { ...person(5), N: -5 };
		expect((await runSync(sandbox(), id, [before])).json[0]).toMatchObject({ updated: 1 });
		sandbox().requests.length = 0;

		const row = person(ENTRIES);
		const result = await runSync(sandbox(), id, [row]);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, requests: 3 });
		expect(apiRequests(sandbox())).toHaveLength(3);
		expect(queriesOf(sandbox()).map((query) => query.body.limit)).not.toContain(1);
		expectStored(id, new Map([[5, before]]), [row]);
	});

	it('a misspelt key column is still refused after the key column was seen (the memory is per column)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		await runSync(sandbox(), id, [{ ...person(5), N: -5 }]);
		const result = await runSync(sandbox(), id, [{ email: 'new@x.io', N: 1 }], {
			keyColumns: 'email',
		});
		expect(result.error?.message).toMatch(/key column "email"/);
		expect(storedData(sandbox(), id)).toHaveLength(ENTRIES);
	});

	it('the key column renamed by another writer within 10 minutes of a run that saw it: nothing is inserted, the run is refused', async () => {
		const id = await seededDataSource(sandbox(), 20, person);
		expect((await runSync(sandbox(), id, [{ ...person(5), N: -5 }])).json[0]).toMatchObject({
			updated: 1,
		});
		// Another writer renames Email to email in every entry.
		for (const { id: entryId, data } of storedEntries(sandbox(), id)) {
			const { Email, ...rest } = data;
			const entry = store.findEntry(sandbox().state, id, entryId);
			store.replaceEntry(sandbox().state, id, { ...entry, data: { ...rest, email: Email } });
		}
		sandbox().requests.length = 0;

		const result = await runSync(sandbox(), id, [person(100), person(101)]);
		expect(result.error?.message).toBe('None of the 20 entries read has the key column "Email"');
		// The read of the keys asked for the entry seen with the key column too, and found nothing:
		// the look at the data source followed, as in a process that never saw it.
		const [read, first, exists] = queriesOf(sandbox());
		expect(read.body.where.$filters[0].value).toEqual([
			'user100@x.io',
			'user101@x.io',
			'user5@x.io',
		]);
		expect(first.body).toMatchObject({ limit: 1 });
		expect(exists.body.where).toEqual({ Email: { $exists: true } });
		expect(commitsOf(sandbox())).toEqual([]);
		expect(storedData(sandbox(), id)).toHaveLength(20);
	});

	it('the entry seen with the key column deleted since: the look is made again, and the rows are inserted', async () => {
		const id = await seededDataSource(sandbox(), 20, person);
		await runSync(sandbox(), id, [{ ...person(5), N: -5 }]);
		const seen = storedEntries(sandbox(), id).find((entry) => entry.data.Email === 'user5@x.io');
		store.removeEntries(sandbox().state, id, [seen!.id]);
		sandbox().requests.length = 0;

		const result = await runSync(sandbox(), id, [person(100)]);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, requests: 4 });
		// The look found another entry carrying the key column: the next run needs no look.
		sandbox().requests.length = 0;
		const next = await runSync(sandbox(), id, [person(101)]);
		expect(next.json[0]).toMatchObject({ inserted: 1, requests: 3 });
		expect(queriesOf(sandbox())[0].body.where.$filters[0].value).toEqual([
			'user101@x.io',
			'user0@x.io',
		]);
	});

	it('10 changed rows: 2 requests', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const rows = Array.from({ length: 10 }, (_, n) => ({ ...person(n * 9_999), N: -n - 1 }));
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 10, requests: 2 });
		expect(apiRequests(sandbox())).toHaveLength(2);
		expectStored(id, new Map(rows.map((row, n) => [n * 9_999, row])), []);
	});

	it('10 new rows: 4 requests in the first run, 3 once a run saw the key column', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const rows = Array.from({ length: 10 }, (_, n) => person(ENTRIES + n));
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 10, requests: 4 });
		expect(apiRequests(sandbox())).toHaveLength(4);
		expectStored(id, new Map(), rows);

		const more = Array.from({ length: 10 }, (_, n) => person(ENTRIES + 10 + n));
		const next = await runSync(sandbox(), id, more);
		expect(next.json[0]).toMatchObject({ inserted: 10, requests: 3 });
		expectStored(id, new Map(), [...rows, ...more]);
	});

	it('1,000 rows, half of them new: at most 6 requests', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const changed = Array.from({ length: 500 }, (_, n) => ({ ...person(n * 150), N: -n - 1 }));
		const added = Array.from({ length: 500 }, (_, n) => person(ENTRIES + n));
		const result = await runSync(sandbox(), id, [...changed, ...added]);

		expect(result.error).toBeUndefined();
		// The read of the keys, the update commit, the insert commit, the check.
		expect(result.json[0]).toMatchObject({ inserted: 500, updated: 500, requests: 4 });
		expect(apiRequests(sandbox())).toHaveLength(4);
		expectStored(id, new Map(changed.map((row, n) => [n * 150, row])), added);
	});
});

describe('Entry → Sync: the targeted read in several requests, and the full read given way', () => {
	// Scaled down: pages of 4 entries, 5 keys per request of a targeted read.
	useReadSizes({ page: 4, targetedKeys: 5 });
	const row = (n: number) => ({ Email: `u${n}@x.io`, N: n });

	it('reads the keys in requests of 5, a request whose entries pass a page in stable pages', async () => {
		// u0 is stored 6 times: its request matches more entries than a page holds.
		const stored = [
			...Array.from({ length: 6 }, () => row(0)),
			...Array.from({ length: 20 }, (_, n) => row(n + 1)),
		];
		const id = await dataSourceWith(sandbox(), stored);
		const input = Array.from({ length: 12 }, (_, n) => ({ ...row(n), N: n + 100 }));
		const result = await runSync(sandbox(), id, input);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 12, inserted: 0, duplicatesRemoved: 5 });
		const reads = queriesOf(sandbox()).filter((query) => query.body.where && !query.body.aggregate);
		// 12 keys, in more than one request of a targeted read: the full read (26 entries, 7 pages)
		// gave way after its first answer.
		const byKeys = reads.filter((query) => query.body.where.$filters[0].value.length <= 5);
		expect(byKeys.length).toBeGreaterThanOrEqual(3);
		expect(byKeys.some((query) => query.body.offset > 0)).toBe(true);
		const full = queriesOf(sandbox()).filter((query) => !query.body.where && !query.body.aggregate);
		expect(full.length).toBeGreaterThan(0);
		expect(full.length).toBeLessThanOrEqual(3);
		const data = storedData(sandbox(), id);
		expect(data.filter((entry) => entry.Email === 'u0@x.io')).toEqual([input[0]]);
		expect(data.slice(0, 12)).toEqual(input);
	});

	it('reads every entry when that costs no more than reading by key', async () => {
		const id = await dataSourceWith(
			sandbox(),
			Array.from({ length: 8 }, (_, n) => row(n)),
		);
		const input = Array.from({ length: 12 }, (_, n) => ({ ...row(n), N: n + 100 }));
		const result = await runSync(sandbox(), id, input);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 8, inserted: 4 });
		expect(
			queriesOf(sandbox()).filter(
				(query) => query.body.where?.$filters?.length === 1 && !query.body.aggregate,
			),
		).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(input);
	});
});

describe('Entry → Sync: keys `oneof` cannot be trusted with are found by reading every entry', () => {
	it.each([
		['a key column named like an entry field', 'id', [{ id: 'a1', N: 1 }], { id: 'a1', N: 2 }],
		['a key column holding a dot', 'a.b', [{ 'a.b': 'x', N: 1 }], { 'a.b': 'x', N: 2 }],
		['a key held as an object', 'K', [{ K: { v: 1 }, N: 1 }], { K: { v: 1 }, N: 2 }],
		["a key whose text is an object's", 'K', [{ K: { v: 1 }, N: 1 }], { K: '{"v":1}', N: 2 }],
	])('%s', async (_name, keyColumns, stored, changed) => {
		const id = await dataSourceWith(sandbox(), stored);
		const result = await runSync(sandbox(), id, [changed], { keyColumns });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, inserted: 0 });
		expect(queriesOf(sandbox())[0].body.where).toBeUndefined();
		expect(commitsOf(sandbox())).toHaveLength(1);
	});
});

describe('Entry → Sync: the superset `oneof` finds is narrowed with the keys', () => {
	it('updates the entry of the exact key only, when keys differ in case or kind', async () => {
		const stored = [
			{ Email: 'ANN@x.io', N: 1 },
			{ Email: 'ann@x.io', N: 2 },
			{ Email: 5, N: 3 },
			{ Email: '5.0', N: 4 },
		];
		const id = await dataSourceWith(sandbox(), stored);
		const input = [
			{ Email: 'ann@x.io', N: 20 },
			{ Email: '5', N: 30 },
		];
		const result = await runSync(sandbox(), id, input);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 2, inserted: 0, duplicatesRemoved: 0 });
		expect(storedData(sandbox(), id)).toEqual([
			stored[0],
			{ Email: 'ann@x.io', N: 20 },
			// The text "5" equals the stored 5 once typed: the key stays as stored.
			{ Email: 5, N: 30 },
			stored[3],
		]);
	});
});
