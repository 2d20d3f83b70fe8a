import { runNode, sandboxCredential, useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	duplicateKeys,
	otherWriterInserts,
	queriesOf,
	runSync,
	store,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

describe('Entry → Sync with other writers', () => {
	it('a delete between two read pages makes Sync neither skip an entry nor insert a duplicate', async () => {
		const rows = Array.from({ length: 5010 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), rows);
		const firstId = storedEntries(sandbox(), id)[0].id;
		// Just before the second page is read, another client deletes an entry of the first page:
		// every later entry moves one place forward, which offset paging would skip.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 2,
			run: (state) => store.removeEntries(state, id, [firstId]),
		});
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 5010 });
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(storedEntries(sandbox(), id)).toHaveLength(5009);
	});

	it('with pages on their way, a delete before one is read drops it and those after it, and nothing is skipped', async () => {
		const rows = Array.from({ length: 15010 }, (_, n) => ({ Email: `q${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), rows);
		const firstId = storedEntries(sandbox(), id)[0].id;
		// The third page is read after another client deleted an entry of the first: it and the
		// fourth, asked for with it, start one entry past where the read stands.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 3,
			run: (state) => store.removeEntries(state, id, [firstId]),
		});
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 15010 });
		expect(commitsOf(sandbox())).toHaveLength(0);
		const pages = queriesOf(sandbox()).map((query) => [query.body.offset, query.body.limit]);
		// The first page tells the total; the three after it are asked for together (in any order).
		// The last of them is dropped with the page before it, and abandoned if still on its way.
		const byOffset = (a: number[], b: number[]) => a[0] - b[0];
		expect(pages.slice(0, 3).sort(byOffset)).toEqual([
			[0, 5000],
			[4999, 5001],
			[9999, 5001],
		]);
		// The page read after the delete is read again from further back than it was asked for.
		const reread = pages.slice(3).find(([offset]) => offset % 5000 !== 4999);
		expect(reread).toBeDefined();
		expect(storedEntries(sandbox(), id)).toHaveLength(15009);
	});

	it('Get Many with Return All returns every entry present during the read exactly once', async () => {
		const rows = Array.from({ length: 35 }, (_, n) => ({ Email: `p${n}@x.io` }));
		const id = await dataSourceWith(sandbox(), rows);
		const before = storedEntries(sandbox(), id);
		const deleted = [before[3].id, before[4].id, before[12].id];
		// Between pages 1 and 2, three entries already read are deleted and one is added.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 2,
			run: (state) => {
				store.removeEntries(state, id, deleted);
				otherWriterInserts(state, id, { Email: 'late@x.io' });
			},
		});
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				returnAll: true,
				options: { pageSize: 10 },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const ids = result.json.map((entry) => entry.id as number);
		expect(new Set(ids).size).toBe(ids.length);
		// Every entry that existed for the whole read is there, and the two deleted after they were
		// read; the one deleted before its page was read is not.
		const present = before.filter((entry) => entry.id !== deleted[2]).map((entry) => entry.id);
		expect(ids).toEqual(expect.arrayContaining(present));
		expect(ids).not.toContain(deleted[2]);
		expect(queriesOf(sandbox()).length).toBeGreaterThanOrEqual(4);
	});

	it('another writer inserting the same new key meanwhile: the key ends on one entry, the lowest id', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		// Just before Sync's insert lands, another run inserts the same key.
		sandbox().beforeHandling({
			path: '/commit$',
			run: (state) =>
				otherWriterInserts(state, id, { Email: 'new@x.io', Name: 'From the other run' }),
		});
		const result = await runSync(sandbox(), id, [
			{ Email: 'new@x.io', Name: 'From this run' },
			{ Email: 'other@x.io' },
		]);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1 });
		const stored = storedEntries(sandbox(), id);
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(stored.map((entry) => entry.data.Email)).toEqual(['old@x.io', 'new@x.io', 'other@x.io']);
		// The other run's entry has the lower id: every run keeps that one.
		expect(stored[1].data.Name).toBe('From the other run');
	});

	it('an entry another writer deletes before its update lands: the error says the entry is gone, and a re-run inserts the row', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', N: 1 },
			{ Email: 'b@x.io', N: 1 },
		]);
		const [a] = storedEntries(sandbox(), id);
		sandbox().beforeHandling({
			path: '/commit$',
			run: (state) => store.removeEntries(state, id, [a.id]),
		});
		const rows = [
			{ Email: 'a@x.io', N: 2 },
			{ Email: 'b@x.io', N: 2 },
		];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error?.message).toMatch(/^Sync stopped at commit 1 of 1 \(update of 2 rows\): /);
		expect(result.error?.httpCode).toBe('404');
		const description = result.error?.description ?? '';
		expect(description).toContain(
			'An entry this commit updates is gone: another writer deleted it after Sync read the data source',
		);
		expect(description).not.toMatch(/id or name|addressed by id/);

		const rerun = await runSync(sandbox(), id, rows);
		expect(rerun.error).toBeUndefined();
		expect(rerun.json[0]).toMatchObject({ inserted: 1, updated: 1 });
		expect(storedEntries(sandbox(), id).map((entry) => entry.data)).toEqual([
			{ Email: 'b@x.io', N: 2 },
			{ Email: 'a@x.io', N: 2 },
		]);
	});

	it('several Syncs of the same new keys at once leave each key on exactly one entry', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = Array.from({ length: 20 }, (_, n) => ({ Email: `k${n}@x.io`, N: n }));
		const runs = await Promise.all(Array.from({ length: 6 }, () => runSync(sandbox(), id, rows)));
		for (const run of runs) expect(run.error).toBeUndefined();
		const inserted = runs.reduce((sum, run) => sum + (run.json[0].inserted as number), 0);
		const removed = runs.reduce((sum, run) => sum + (run.json[0].duplicatesRemoved as number), 0);
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(storedEntries(sandbox(), id).map((entry) => entry.data)).toEqual(
			expect.arrayContaining(rows),
		);
		expect(storedEntries(sandbox(), id)).toHaveLength(20);
		// Whatever interleaving happened, every extra insert was repaired (two runs may remove the
		// same extra entry, each counting it).
		expect(removed).toBeGreaterThanOrEqual(inserted - 20);
	});

	it('a check that finds no duplicate costs one small request, however many keys were inserted', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = Array.from({ length: 3000 }, (_, n) => ({ Email: `k${n}@x.io` }));
		const result = await runSync(sandbox(), id, rows, { syncOptions: { chunkSize: 1000 } });
		// The read, three commits of 1,000 rows, one check.
		expect(result.json[0]).toMatchObject({ inserted: 3000, duplicatesRemoved: 0, requests: 5 });
		expect(queriesOf(sandbox())).toHaveLength(2);
		const check = queriesOf(sandbox())[1];
		expect(check.body.aggregate).toEqual([
			{ $group: { _id: '$data.Email', n: { $sum: 1 } } },
			{ $group: { _id: '$n', keys: { $sum: 1 } } },
		]);
		expect(check.status).toBe(200);
	});
});

describe('Entry → Update (merge) with another writer', () => {
	it.each([
		['the single-entry update (hooks on)', true, '/data/200$'],
		['a commit with extend (hooks off)', false, '/commit$'],
	])(
		'%s: a change to another column between the request and its processing is kept',
		async (_label, runHooks, path) => {
			sandbox().beforeHandling({
				path,
				run: (state) => {
					const current = store.findEntry(state, 100, 200);
					store.replaceEntry(state, 100, {
						...current,
						data: { ...current.data, Name: 'Alice M.' },
					});
				},
			});
			const result = await runNode({
				parameters: {
					resource: 'entry',
					operation: 'update',
					dataSource: { __rl: true, mode: 'id', value: '100' },
					entryId: '200',
					columns: { mappingMode: 'defineBelow', value: { Age: 35 } },
					runHooks,
				},
				credentials: sandboxCredential(sandbox()),
			});
			expect(result.error).toBeUndefined();
			const stored = store.findEntry(sandbox().state, 100, 200);
			expect(stored.data).toMatchObject({ Name: 'Alice M.', Age: 35 });
			expect(result.json[0]).toMatchObject({ id: 200, data: { Name: 'Alice M.', Age: 35 } });
		},
	);
});
