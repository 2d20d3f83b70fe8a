/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	READ_PATHS,
	runSync,
	storedData,
	storedEntries,
	useReadPath,
} from './fixtures';

const sandbox = useSandbox();

const people = [
	{ Email: 'ann@x.io', Name: 'Ann', Age: 30, Photo: 'ann.png' },
	{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
	{ Email: 'cy@x.io', Name: 'Cy', Age: 50 },
];
const updateOnly = (syncOptions = {}) => ({ syncMode: 'updateOnly', syncOptions });

describe.each(READ_PATHS)('Entry → Sync, Only Update Existing (the %s read)', (path) => {
	useReadPath(path);

	it('updates the entries whose key is found, merging or replacing as asked, and inserts nothing', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const merged = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Age: 31 },
				{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
			],
			updateOnly({ outputRows: true }),
		);

		expect(merged.error).toBeUndefined();
		expect(merged.json[0]).toMatchObject({
			inserted: 0,
			updated: 1,
			unchanged: 1,
			notFound: 0,
			mode: 'updateOnly',
		});
		const [ann] = storedEntries(sandbox(), id);
		expect(merged.json.slice(1)).toEqual([
			{ action: 'update', id: ann.id, key: 'ann@x.io', data: { Email: 'ann@x.io', Age: 31 } },
		]);
		expect(storedData(sandbox(), id)[0]).toEqual({ ...people[0], Age: 31 });

		const replaced = await runSync(
			sandbox(),
			id,
			[{ Email: 'ann@x.io', Age: 32 }],
			updateOnly({ updateStyle: 'replace' }),
		);
		expect(replaced.json[0]).toMatchObject({ updated: 1, notFound: 0 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'ann@x.io', Age: 32 }, ...people.slice(1)]);
	});

	it('without Continue On Fail, a key no entry has stops the run before any commit, naming the rows', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Age: 31 },
				{ Email: 'dan@x.io', Age: 20 },
				{ Email: 'eve@x.io', Age: 21 },
			],
			updateOnly(),
		);

		expect(result.error?.message).toBe('2 rows have keys that no entry of the data source has');
		expect(result.error?.description).toMatch(
			/^Only Update Existing never inserts\. Not found: item 1 \("dan@x\.io"\), item 2 \("eve@x\.io"\)\. /,
		);
		expect(result.error?.description).toMatch(/Continue On Fail/);
		expect(result.error?.description).toMatch(/Nothing was changed\.$/);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it('with Continue On Fail, writes the rows found and gives each row not found an error item of its own', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const input = [
			{ Email: 'dan@x.io', Age: 20 },
			{ Email: 'ann@x.io', Age: 31 },
			{ Email: 'eve@x.io', Age: 21 },
		];
		const result = await runSync(sandbox(), id, input, updateOnly(), { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1, notFound: 2 });
		expect(result.json.slice(1)).toEqual([
			expect.objectContaining({ error: 'Item 0: no entry has the key "dan@x.io"' }),
			expect.objectContaining({ error: 'Item 2: no entry has the key "eve@x.io"' }),
		]);
		expect(result.items.slice(1).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 2 },
		]);
		expect(storedData(sandbox(), id)).toEqual([{ ...people[0], Age: 31 }, ...people.slice(1)]);
	});

	it.each([false, true])(
		'a run where no row has the key of an entry is refused (Continue On Fail: %s), changing nothing',
		async (continueOnFail) => {
			const id = await dataSourceWith(sandbox(), people);
			const input = [{ Email: 'dan@x.io' }, { Email: 'ANN@x.io' }];
			const result = await runSync(sandbox(), id, input, updateOnly(), { continueOnFail });

			const message = 'None of the 2 rows has the key of an entry of the data source';
			if (continueOnFail) {
				expect(result.json).toEqual([expect.objectContaining({ error: message })]);
				expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
			} else {
				expect(result.error?.message).toBe(message);
				expect(result.error?.description).toMatch(/Ignore Key Case/);
			}
			expect(commitsOf(sandbox())).toHaveLength(0);
			expect(storedData(sandbox(), id)).toEqual(people);
		},
	);

	it('skips rows sharing a key; a key found on several entries updates the oldest and the others go', async () => {
		const id = await dataSourceWith(sandbox(), [
			...people,
			{ Email: 'bob@x.io', Name: 'Bob again', Age: 41 },
		]);
		const [, bob] = storedEntries(sandbox(), id);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Age: 1 },
				{ Email: 'ann@x.io', Age: 2 },
				{ Email: 'bob@x.io', Name: 'Bob', Age: 42 },
			],
			updateOnly(),
		);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			updated: 1,
			notFound: 0,
			duplicatesRemoved: 1,
			skipped: [
				expect.objectContaining({ itemIndex: 0, key: 'ann@x.io' }),
				expect.objectContaining({ itemIndex: 1, key: 'ann@x.io' }),
			],
		});
		expect(storedEntries(sandbox(), id).map((entry) => entry.id)).toContain(bob.id);
		expect(storedData(sandbox(), id)).toEqual([
			people[0],
			{ Email: 'bob@x.io', Name: 'Bob', Age: 42 },
			people[2],
		]);
	});

	it('with a timestamp column updates only rows newer than their entry, and runs the update hooks', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Age: 30, Modified: '2024-05-01' },
			{ Email: 'bob@x.io', Age: 40, Modified: '2024-05-01' },
		]);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Age: 31, Modified: '2024-06-01' },
				{ Email: 'bob@x.io', Age: 39, Modified: '2024-04-01' },
			],
			updateOnly({ timestampColumn: 'Modified', runHooks: ['update'] }),
		);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, unchanged: 1, notFound: 0 });
		expect(commitsOf(sandbox()).map((commit) => commit.body.runHooks)).toEqual([['update']]);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'ann@x.io', Age: 31, Modified: '2024-06-01' },
			{ Email: 'bob@x.io', Age: 40, Modified: '2024-05-01' },
		]);
	});

	it('updates every matched row without comparing when asked', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[people[1], people[2]],
			updateOnly({ updateAll: true }),
		);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 2, unchanged: 0, notFound: 0 });
		expect(storedData(sandbox(), id)).toEqual(people);
	});
});

describe('Entry → Sync, Only Update Existing: an entry deleted by another writer during the run', () => {
	const store = require('../../sandbox/dataSources/store');
	const input = [
		{ Email: 'ann@x.io', Age: 31 },
		{ Email: 'bob@x.io', Age: 41 },
	];

	/** The update commit (hooks on: never re-sent) is stored, its answer lost; then Ann's entry goes. */
	async function losingAnn() {
		const id = await dataSourceWith(sandbox(), people);
		const [ann] = storedEntries(sandbox(), id);
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		sandbox().beforeHandling({
			nth: 2,
			path: '/data/query$',
			run: (state) => store.removeEntries(state, id, [ann.id]),
		});
		return id;
	}

	it('is not inserted when the read after a lost answer finds it gone: with Continue On Fail, an error item', async () => {
		const id = await losingAnn();
		const result = await runSync(sandbox(), id, input, updateOnly({ runHooks: ['update'] }), {
			continueOnFail: true,
		});

		expect(result.json[0]).toMatchObject({
			inserted: 0,
			updated: 1,
			recovered: { commits: 1, rowsFound: 1, rowsResent: 0 },
		});
		expect(result.json.slice(1)).toEqual([
			expect.objectContaining({ error: 'Item 0: no entry has the key "ann@x.io"' }),
		]);
		expect(storedData(sandbox(), id)).toEqual([{ ...people[1], Age: 41 }, people[2]]);
	});

	it('without Continue On Fail the run fails once the rest is written, saying which row and what was', async () => {
		const id = await losingAnn();
		const result = await runSync(sandbox(), id, input, updateOnly({ runHooks: ['update'] }));

		expect(result.error?.message).toBe('1 row not updated: the entry was deleted while Sync ran');
		expect(result.error?.description).toMatch(
			/^Not updated: item 0 \("ann@x\.io"\)\. The other rows were written \(0 inserted, 1 updated\)\. /,
		);
		expect(storedData(sandbox(), id)).toEqual([{ ...people[1], Age: 41 }, people[2]]);
	});
});
