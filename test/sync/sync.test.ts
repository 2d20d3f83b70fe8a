/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	failNthCommit,
	queriesOf,
	runSync,
	storedData,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

const people = [
	{ Email: 'ann@x.io', Name: 'Ann', Age: 30 },
	{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
	{ Email: 'cy@x.io', Name: 'Cy', Age: 50 },
];

describe('Entry → Sync', () => {
	it('inserts every row into an empty data source in one commit', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, people);

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				inserted: 3,
				updated: 0,
				deleted: 0,
				unchanged: 0,
				duplicatesRemoved: 0,
				skipped: [],
				// The read of the keys, the look at the data source (none found: is the key column
				// misspelt?), the commit, and the check that no other run inserted the same keys.
				requests: 4,
				commits: 1,
				recovered: { commits: 0, rowsFound: 0, rowsResent: 0 },
				mode: 'insertAndUpdate',
				dryRun: false,
			},
		]);
		const [query] = queriesOf(sandbox());
		expect(query.method).toBe('POST');
		expect(query.body).toEqual({
			type: 'select',
			where: {
				$filters: [
					{
						column: 'Email',
						condition: 'oneof',
						value: people.map((person) => person.Email),
					},
				],
			},
			attributes: ['id', 'data.Email', 'data.Name', 'data.Age'],
			order: [['id', 'ASC']],
			limit: 5000,
			offset: 0,
			includePagination: true,
		});
		const [commit] = commitsOf(sandbox());
		expect(commit.path).toBe(`/v1/data-sources/${id}/commit`);
		expect(commit.body).toEqual({
			// Without Output Rows nothing reads the new ids: no clientId is sent.
			entries: people.map((data) => ({ data })),
			append: true,
			extend: true,
			returnEntries: false,
		});
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it('updates only the changed rows, by id, and inserts the new ones', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann, bob] = storedEntries(sandbox(), id);
		const input = [
			{ Email: 'ann@x.io', Name: 'Ann', Age: 31 },
			{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
			{ Email: 'cy@x.io', Name: 'Cy', Age: 50 },
			{ Email: 'dee@x.io', Name: 'Dee', Age: 20 },
		];
		const result = await runSync(sandbox(), id, input);

		expect(result.json[0]).toMatchObject({
			inserted: 1,
			updated: 1,
			unchanged: 2,
			deleted: 0,
			requests: 4,
		});
		const [update, insert] = commitsOf(sandbox());
		expect(update.body).toEqual({
			// Rows merge into their entries: an update sends the cells that changed.
			entries: [{ id: ann.id, data: { Age: 31 } }],
			append: true,
			extend: true,
			returnEntries: false,
		});
		expect(insert.body.entries).toEqual([{ data: input[3] }]);
		expect(storedEntries(sandbox(), id).find((entry) => entry.id === bob.id)?.data).toEqual(
			people[1],
		);
		expect(storedData(sandbox(), id)).toEqual(input);
	});

	it('sends nothing but the one read when nothing changed', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [...people].reverse());

		expect(result.json[0]).toMatchObject({
			inserted: 0,
			updated: 0,
			unchanged: 3,
			requests: 1,
			commits: 0,
		});
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			`/v1/data-sources/${id}/data/query`,
		]);
	});

	it('matches keys ignoring case when asked, and not otherwise', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const input = [{ Email: 'ANN@X.IO', Name: 'Ann', Age: 30 }];

		const insensitive = await runSync(sandbox(), id, input, {
			syncOptions: { ignoreKeyCase: true },
		});
		expect(insensitive.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 0 });
		expect(commitsOf(sandbox())[0].body.entries[0].id).toBe(storedEntries(sandbox(), id)[0].id);

		sandbox().requests.length = 0;
		const sensitive = await runSync(sandbox(), id, [{ Email: 'BOB@X.IO', Name: 'Bob', Age: 40 }]);
		expect(sensitive.json[0]).toMatchObject({ inserted: 1, updated: 0 });
	});

	it('matches on several key columns together', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ First: 'Ann', Last: 'Lee', Team: 'A' },
			{ First: 'Ann', Last: 'Ray', Team: 'B' },
		]);
		const input = [
			{ First: 'Ann', Last: 'Ray', Team: 'C' },
			{ First: 'Bob', Last: 'Lee', Team: 'A' },
		];
		const result = await runSync(sandbox(), id, input, { keyColumns: 'First, Last' });

		expect(result.json[0]).toMatchObject({ inserted: 1, updated: 1 });
		const [update, insert] = commitsOf(sandbox());
		expect(update.body.entries).toEqual([
			{ id: storedEntries(sandbox(), id)[1].id, data: { Team: 'C' } },
		]);
		expect(insert.body.entries.map((entry: any) => entry.data)).toEqual([input[1]]);
		expect(queriesOf(sandbox())[0].body.attributes).toEqual([
			'id',
			'data.First',
			'data.Last',
			'data.Team',
		]);
	});

	it('reports rows without a key or with a duplicate key in skipped, and syncs the rest', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, [
			{ Email: 'ann@x.io', Name: 'Ann' },
			{ Name: 'No Email' },
			{ Email: '  ', Name: 'Blank Email' },
			{ Email: 'dup@x.io', Name: 'First' },
			{ Email: 'dup@x.io', Name: 'Second' },
		]);

		expect(result.json[0]).toMatchObject({
			inserted: 1,
			skipped: [
				{ itemIndex: 1, reason: 'Missing key column "Email"' },
				{ itemIndex: 2, reason: 'Missing key column "Email"' },
				{ itemIndex: 3, reason: 'Duplicate key (also in item 4)', key: 'dup@x.io' },
				{ itemIndex: 4, reason: 'Duplicate key (also in item 3)', key: 'dup@x.io' },
			],
		});
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'ann@x.io', Name: 'Ann' }]);
	});

	it('mirror deletes only the absent keys, in a final commit after the upserts', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [, bob, cy] = storedEntries(sandbox(), id);
		const input = [
			{ Email: 'ann@x.io', Name: 'Ann', Age: 99 },
			{ Email: 'eve@x.io', Name: 'Eve', Age: 25 },
		];
		// 2 of 3 entries go: over the default 50% limit, so the limit is raised.
		const result = await runSync(sandbox(), id, input, { syncMode: 'mirror', maxDeleteShare: 100 });

		expect(result.json[0]).toMatchObject({
			inserted: 1,
			updated: 1,
			deleted: 2,
			mode: 'mirror',
			requests: 5,
		});
		const order = apiRequests(sandbox()).map((request) =>
			request.path.endsWith('query')
				? 'read'
				: request.body.delete
					? 'delete'
					: request.body.entries[0].id
						? 'update'
						: 'insert',
		);
		// Last, the check that no overlapping run inserted the same new key.
		expect(order).toEqual(['read', 'update', 'insert', 'delete', 'read']);
		expect(commitsOf(sandbox())[2].body).toEqual({
			entries: [],
			append: true,
			delete: [bob.id, cy.id],
			returnEntries: false,
		});
		expect(storedData(sandbox(), id)).toEqual(input);
	});

	it('mirror refuses to empty the data source unless allowed', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const refused = await runSync(sandbox(), id, [{ Email: 'dan@x.io' }], { syncMode: 'mirror' });

		expect(refused.error?.message).toBe('Mirror would delete all 3 entries of the data source');
		expect(refused.error?.description).toContain('Allow Emptying the Data Source');
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(people);

		const allowed = await runSync(sandbox(), id, [{ Email: 'dan@x.io' }], {
			syncMode: 'mirror',
			allowEmpty: true,
		});
		expect(allowed.json[0]).toMatchObject({ deleted: 3, inserted: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'dan@x.io' }]);
	});

	it('only inserts new keys in insert-only mode', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Name: 'Changed' },
				{ Email: 'new@x.io', Name: 'New' },
			],
			{ syncMode: 'insertOnly' },
		);

		expect(result.json[0]).toMatchObject({ inserted: 1, updated: 0, unchanged: 1, deleted: 0 });
		expect(commitsOf(sandbox())).toHaveLength(1);
		expect(commitsOf(sandbox())[0].body.entries).toEqual([
			{ data: { Email: 'new@x.io', Name: 'New' } },
		]);
		expect(storedData(sandbox(), id)[0]).toEqual(people[0]);
	});

	it('dry run reads, reports what would change and sends no write', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'ann@x.io', Name: 'Ann', Age: 1 },
				{ Email: 'new@x.io', Name: 'New' },
			],
			{ syncMode: 'mirror', maxDeleteShare: 100, syncOptions: { dryRun: true, outputRows: true } },
		);

		expect(result.json[0]).toMatchObject({
			inserted: 1,
			updated: 1,
			deleted: 2,
			dryRun: true,
			requests: 1,
			commits: 0,
		});
		expect(result.json.slice(1).map((row) => [row.action, row.key])).toEqual([
			['update', 'ann@x.io'],
			['insert', 'new@x.io'],
			['delete', 'bob@x.io'],
			['delete', 'cy@x.io'],
		]);
		expect(result.json[2]).toMatchObject({ id: null, idNote: 'Dry run: nothing was sent.' });
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			`/v1/data-sources/${id}/data/query`,
		]);
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it('typecasts spreadsheet text into numbers and booleans, so equal values stay unchanged', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Age: 30, Active: true, Zip: '007' },
		]);
		const input = [
			{ Email: 'ann@x.io', Age: '30', Active: 'TRUE', Zip: '007' },
			{ Email: 'bob@x.io', Age: '41.5', Active: 'false', Zip: '01234' },
		];

		const result = await runSync(sandbox(), id, input, { syncOptions: { typecast: true } });
		expect(result.json[0]).toMatchObject({ inserted: 1, unchanged: 1, updated: 0 });
		expect(commitsOf(sandbox())[0].body.entries[0].data).toEqual({
			Email: 'bob@x.io',
			Age: 41.5,
			Active: false,
			Zip: '01234',
		});

		// Without it the text equal to what is stored once typed changes nothing either.
		sandbox().requests.length = 0;
		const untyped = await runSync(sandbox(), id, input.slice(0, 1));
		expect(untyped.json[0]).toMatchObject({ updated: 0, unchanged: 1 });
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('merges columns by default and replaces the row data when asked', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Name: 'Ann', Photo: 'ann.png' },
		]);

		const merged = await runSync(sandbox(), id, [{ Email: 'ann@x.io', Name: 'Ann' }]);
		expect(merged.json[0]).toMatchObject({ unchanged: 1, updated: 0 });
		await runSync(sandbox(), id, [{ Email: 'ann@x.io', Name: 'Anne' }]);
		expect(commitsOf(sandbox())[0].body.extend).toBe(true);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'ann@x.io', Name: 'Anne', Photo: 'ann.png' },
		]);

		sandbox().requests.length = 0;
		const replaced = await runSync(sandbox(), id, [{ Email: 'ann@x.io', Name: 'Anne' }], {
			syncOptions: { updateStyle: 'replace' },
		});
		expect(replaced.json[0]).toMatchObject({ updated: 1 });
		expect(queriesOf(sandbox())[0].body.attributes).toBeUndefined();
		expect(commitsOf(sandbox())[0].body).toMatchObject({
			entries: [{ data: { Email: 'ann@x.io', Name: 'Anne' } }],
			extend: false,
			append: true,
		});
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'ann@x.io', Name: 'Anne' }]);
	});

	it('asks the API to run the chosen hooks', async () => {
		const id = await dataSourceWith(sandbox(), [people[0]]);
		await runSync(sandbox(), id, [{ ...people[0], Age: 1 }, people[1]], {
			syncOptions: { runHooks: ['insert', 'update'] },
		});

		const commits = commitsOf(sandbox());
		expect(commits.map((commit) => commit.body.runHooks)).toEqual([
			['insert', 'update'],
			['insert', 'update'],
		]);
		expect(sandbox().state.hookRuns.map((run: any) => run.kind)).toEqual(['update', 'insert']);
	});

	it('splits large changes into chunks of the chosen size', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const input = Array.from({ length: 7 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));
		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 3 } });

		// The read of the keys, the look at the empty data source, 3 commits, the count.
		expect(result.json[0]).toMatchObject({ inserted: 7, commits: 3, requests: 6 });
		expect(commitsOf(sandbox()).map((commit) => commit.body.entries.length)).toEqual([3, 3, 1]);
		expect(storedData(sandbox(), id)).toEqual(input);
	});

	it('reads a large data source page by page', async () => {
		const rows = Array.from({ length: 5003 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, rows);

		expect(result.json[0]).toMatchObject({ unchanged: 5003, requests: 2, commits: 0 });
		// The second page starts at the last entry read (its anchor), one entry of overlap.
		expect(queriesOf(sandbox()).map((query) => [query.body.offset, query.body.limit])).toEqual([
			[0, 5000],
			[4999, 5001],
		]);
	});

	it('reports the chunks that landed when one is refused, and a re-run completes without duplicates', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const input = Array.from({ length: 5 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));
		failNthCommit(sandbox(), 2, 400);
		const failed = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 2 } });

		expect(failed.error?.message).toBe(
			'Sync stopped at commit 2 of 3 (insert of 2 rows): Injected fault',
		);
		// Commit 3 was on its way with commit 2 (small commits go together) and landed.
		expect(failed.error?.description).toContain(
			'Commits 1 and 3 of 3 landed (3 inserted, 0 updated, 0 deleted)',
		);
		expect(failed.error?.description).toContain('re-running Sync is safe');
		// A refused commit is not re-sent.
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([200, 400, 200]);
		expect(storedData(sandbox(), id)).toEqual([...input.slice(0, 2), input[4]]);

		delete (sandbox().requests as any).push;
		sandbox().requests.length = 0;
		const rerun = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 2 } });
		expect(rerun.json[0]).toMatchObject({ inserted: 2, unchanged: 3 });
		expect(storedData(sandbox(), id)).toEqual(expect.arrayContaining(input));
		expect(storedData(sandbox(), id)).toHaveLength(5);
	});

	it('with Continue On Fail returns a summary of what landed and the error', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const input = Array.from({ length: 3 }, (_, n) => ({ Email: `p${n}@x.io` }));
		failNthCommit(sandbox(), 2, 400);
		const result = await runSync(
			sandbox(),
			id,
			input,
			{ syncOptions: { chunkSize: 1 } },
			{ continueOnFail: true },
		);

		expect(result.error).toBeUndefined();
		// Commits 1 and 3 landed; 2 did not.
		expect(result.json[0]).toMatchObject({
			inserted: 2,
			commits: 2,
			failedCommit: 2,
			totalCommits: 3,
			error: 'Sync stopped at commit 2 of 3 (insert of 1 rows): Injected fault',
		});
		expect(result.json[0].description).toContain('re-running Sync is safe');
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('mirror sends no delete when an upsert commit is refused', async () => {
		const id = await dataSourceWith(sandbox(), people);
		failNthCommit(sandbox(), 1, 400);
		const result = await runSync(sandbox(), id, [{ ...people[0], Age: 1 }], {
			syncMode: 'mirror',
			allowEmpty: true,
			syncOptions: { maxDeleteShare: 100 },
		});

		expect(result.error?.message).toMatch(/^Sync stopped at commit 1 of 2 \(update of 1 rows\)/);
		expect(result.error?.description).toMatch(/^None of the 2 commits had landed\. /);
		expect(commitsOf(sandbox()).every((commit) => commit.body.delete === undefined)).toBe(true);
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it('retries a failed update commit, since re-sending it is harmless', async () => {
		const id = await dataSourceWith(sandbox(), people);
		failNthCommit(sandbox(), 1);
		const result = await runSync(sandbox(), id, [{ ...people[0], Age: 1 }]);

		expect(result.json[0]).toMatchObject({ updated: 1, commits: 1 });
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([500, 200]);
		expect(storedData(sandbox(), id)[0].Age).toBe(1);
	});

	it('outputs one item per changed row with its entry id, paired with its input item', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann, , cy] = storedEntries(sandbox(), id);
		const input = [
			{ Email: 'new@x.io', Name: 'New' },
			{ Email: 'ann@x.io', Name: 'Ann', Age: 31 },
			{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
		];
		const result = await runSync(sandbox(), id, input, {
			syncMode: 'mirror',
			syncOptions: { outputRows: true },
		});

		const created = storedEntries(sandbox(), id).find((entry) => entry.data.Email === 'new@x.io')!;
		expect(result.json.slice(1)).toEqual([
			{ action: 'update', id: ann.id, key: 'ann@x.io', data: input[1] },
			{ action: 'insert', id: created.id, key: 'new@x.io', data: input[0] },
			{ action: 'delete', id: cy.id, key: 'cy@x.io' },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			[{ item: 0 }, { item: 1 }, { item: 2 }],
			{ item: 1 },
			{ item: 0 },
			[{ item: 0 }, { item: 1 }, { item: 2 }],
		]);
	});

	it('refuses a missing key column setting before sending anything', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, people, { keyColumns: ' , ' });

		expect(result.error?.message).toBe('No key column given');
		expect(result.error?.description).toContain('Key Columns');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
