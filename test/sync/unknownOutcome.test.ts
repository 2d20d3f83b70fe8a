/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { RERUN_IS_SAFE } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { faultNthRequest, useSandbox, type Sandbox, type SandboxFault } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	commitsOf,
	dataSourceWith,
	duplicateKeys,
	otherWriterInserts,
	queriesOf,
	runSync,
	storedData,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

/** The commit whose first row has this key meets `fault`, whatever order commits arrive in. */
function faultCommitOf(box: Sandbox, email: string, fault: SandboxFault) {
	box.injectFault({
		...fault,
		method: 'POST',
		path: '/commit$',
		match: (body) => body?.entries?.[0]?.data?.Email === email,
	});
}

/** The checks of keys after the commits: the queries that carry an aggregate. */
const checksOf = (box: Sandbox) => queriesOf(box).filter((query) => query.body.aggregate);

const existing = [{ Email: 'old@x.io', N: 0 }];
const input = [
	{ Email: 'old@x.io', N: 0 },
	{ Email: 'a@x.io', N: 1 },
	{ Email: 'b@x.io', N: 2 },
];

/** An answer that comes after the credential's timeout (1 s), long after the rows were stored. */
const LATE: SandboxFault = { mode: 'delay', delayMs: 60_000 };

const lostAnswers: Array<[string, SandboxFault]> = [
	['a 502 after the server stored it', { mode: 'status-after', status: 502 }],
	['a connection dropped after the server stored it', { mode: 'drop-after' }],
	['an answer cut mid-body', { mode: 'cut-after' }],
	['a timeout while the server stored it', LATE],
];

describe('Entry → Sync: a commit whose answer is lost after the server stored it', () => {
	it.each(lostAnswers)(
		'(%s) is found stored by reading its keys: its rows are reported landed, with their ids, and checked',
		async (_name, fault) => {
			const id = await dataSourceWith(sandbox(), existing);
			faultNthCommit(sandbox(), 1, fault as any);
			const result = await runSync(
				sandbox(),
				id,
				input,
				{ syncOptions: { outputRows: true } },
				{
					continueOnFail: true,
					timeoutSeconds: fault === LATE ? 1 : undefined,
				},
			);

			// Every row is stored once, and the output says so: not that it may have been.
			expect(storedData(sandbox(), id)).toEqual(input);
			const [summary, ...rows] = result.json;
			expect(summary).toMatchObject({
				inserted: 2,
				commits: 1,
				duplicatesRemoved: 0,
				recovered: { commits: 1, rowsFound: 2, rowsResent: 0 },
			});
			expect(summary).not.toHaveProperty('error');
			expect(summary).not.toHaveProperty('mayHaveLanded');
			const ids = storedEntries(sandbox(), id).map((entry) => entry.id);
			expect(rows).toEqual(
				input.slice(1).map((data, n) => ({
					action: 'insert',
					id: ids[n + 1],
					key: data.Email,
					data,
				})),
			);
			// The keys of the commit were read, then checked for duplicates in this run.
			const keyQueries = queriesOf(sandbox()).filter((query) => query.body.where);
			expect(keyQueries.map((query) => query.body.where.$filters[0].value)).toEqual([
				['old@x.io', 'a@x.io', 'b@x.io'],
				['a@x.io', 'b@x.io'],
				['a@x.io', 'b@x.io'],
			]);
			expect(checksOf(sandbox())).toHaveLength(1);
		},
	);

	it('without Continue On Fail, a lost commit whose keys cannot be read says it may have landed and that a re-run is safe', async () => {
		const id = await dataSourceWith(sandbox(), existing);
		faultNthCommit(sandbox(), 1, { mode: 'status-after', status: 502 });
		// The read of its keys is refused.
		faultNthRequest(sandbox(), { method: 'POST', path: /\/data\/query$/ }, 2, {
			mode: 'status-before',
			status: 400,
			body: { message: 'Query refused' },
		});
		const result = await runSync(sandbox(), id, input);

		expect(result.error?.message).toMatch(/^Sync stopped at commit 1 of 1 \(insert of 2 rows\): /);
		expect(result.error?.description).toBe(
			`Commit 1 of 1 may have landed (2 inserted, 0 updated, 0 deleted): it failed after being sent (a server error, a timeout or a lost answer), which can happen after the server stored it. Reading its keys to see what it stored failed too (Query refused). ${RERUN_IS_SAFE}`,
		);

		sandbox().requests.length = 0;
		const rerun = await runSync(sandbox(), id, input);
		expect(rerun.error).toBeUndefined();
		expect(rerun.json[0]).toMatchObject({ inserted: 0, unchanged: 3 });
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('a refused commit did not land: its keys are not checked, those of the one that may have are', async () => {
		const id = await dataSourceWith(sandbox(), existing);
		const rows = [...input, { Email: 'c@x.io', N: 3 }, { Email: 'd@x.io', N: 4 }];
		// Chunks of 2, inserts only (old@x.io is unchanged): commit 1 (a, b) is refused, commit 2
		// (c, d), on its way with it, is stored and its answer lost.
		faultCommitOf(sandbox(), 'a@x.io', { mode: 'status-before', status: 400 });
		faultCommitOf(sandbox(), 'c@x.io', { mode: 'drop-after' });
		const result = await runSync(
			sandbox(),
			id,
			rows,
			{ syncOptions: { chunkSize: 2 } },
			{ continueOnFail: true },
		);

		expect(result.json[0]).toMatchObject({
			inserted: 0,
			failedCommit: 1,
			mayHaveLanded: { commits: 1, inserted: 2 },
		});
		expect(String(result.json[0].description)).toMatch(
			/^Commit 2 of 2 may have landed \(2 inserted, 0 updated, 0 deleted\)/,
		);
		expect(checksOf(sandbox()).map((check) => check.body.where.$filters[0].value)).toEqual([
			['c@x.io', 'd@x.io'],
		]);
	});

	it('when another writer inserted one of its keys just before it was stored, this run repairs it', async () => {
		const id = await dataSourceWith(sandbox(), existing);
		sandbox().beforeHandling({
			path: '/commit$',
			run: () =>
				otherWriterInserts(sandbox().state, id, {
					Email: 'a@x.io',
					N: 9,
					By: 'other',
				}),
		});
		faultNthCommit(sandbox(), 1, { mode: 'status-after', status: 502 });
		const result = await runSync(sandbox(), id, input, {}, { continueOnFail: true });

		// a@x.io was found on two entries: the older one, the other writer's, is made to hold the
		// row (as a re-run would) and the newer one removed; b@x.io was found as sent.
		expect(result.json[0]).toMatchObject({
			inserted: 1,
			updated: 1,
			duplicatesRemoved: 1,
			recovered: { commits: 1, rowsFound: 1, rowsResent: 1 },
		});
		expect(result.json[0]).not.toHaveProperty('error');
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(storedData(sandbox(), id)).toEqual([
			existing[0],
			{ Email: 'a@x.io', N: 1, By: 'other' },
			input[2],
		]);
	});
});

describe('Entry → Sync: the re-run after a commit whose answer was lost', () => {
	it.each([
		['inserts and updates', 'insertAndUpdate'],
		['only inserts', 'insertOnly'],
	])(
		'(%s) leaves each key on one entry when another writer inserted one of its keys in between',
		async (_name, syncMode) => {
			const id = await dataSourceWith(sandbox(), existing);
			faultNthCommit(sandbox(), 1, { mode: 'drop-after' });
			const first = await runSync(sandbox(), id, input, { syncMode });
			expect(first.error).toBeUndefined();
			expect(first.json[0]).toMatchObject({ recovered: { commits: 1, rowsFound: 2 } });
			// Between the runs, another writer inserts a key the lost commit had stored.
			otherWriterInserts(sandbox().state, id, { Email: 'b@x.io', N: 2 });
			expect(duplicateKeys(sandbox(), id)).toEqual(['b@x.io']);

			sandbox().requests.length = 0;
			const rerun = await runSync(sandbox(), id, input, { syncMode });
			expect(rerun.error).toBeUndefined();
			expect(rerun.json[0]).toMatchObject({
				inserted: 0,
				updated: 0,
				duplicatesRemoved: 1,
			});
			expect(duplicateKeys(sandbox(), id)).toEqual([]);
			expect(storedData(sandbox(), id)).toEqual(input);
		},
	);

	it('repairs a key found on several entries after updating the oldest one, which it keeps', async () => {
		const id = await dataSourceWith(sandbox(), [...existing, { Email: 'a@x.io', N: 5 }]);
		otherWriterInserts(sandbox().state, id, { Email: 'a@x.io', N: 6 });
		const [, oldest, newer] = storedEntries(sandbox(), id);
		const result = await runSync(sandbox(), id, input.slice(0, 2), {
			syncOptions: { outputRows: true },
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, duplicatesRemoved: 1 });
		expect(result.json[1]).toMatchObject({
			action: 'update',
			id: oldest.id,
			key: 'a@x.io',
		});
		expect(storedEntries(sandbox(), id).map((entry) => entry.id)).not.toContain(newer.id);
		expect(storedData(sandbox(), id)).toEqual(input.slice(0, 2));
	});

	it('checks no key when the read found none on several entries', async () => {
		const id = await dataSourceWith(sandbox(), existing);
		const result = await runSync(sandbox(), id, [{ Email: 'old@x.io', N: 1 }]);

		expect(result.json[0]).toMatchObject({ updated: 1, duplicatesRemoved: 0 });
		expect(checksOf(sandbox())).toHaveLength(0);
	});
});

describe('Entry → Sync: a commit fails, then the duplicate check fails too', () => {
	/** The check of the keys (the query with an aggregate) is refused. */
	const refuseCheck = () =>
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'Aggregation refused' },
			method: 'POST',
			path: '/data/query$',
			match: (body) => body?.aggregate !== undefined,
		});

	/** Chunks of 2 into an empty data source: commit 1 (a, b) refused, commit 2 (c, d) landed. */
	async function runBothFailing(continueOnFail: boolean) {
		const id = await dataSourceWith(sandbox(), []);
		const rows = ['a', 'b', 'c', 'd'].map((name) => ({
			Email: `${name}@x.io`,
		}));
		faultCommitOf(sandbox(), 'a@x.io', {
			mode: 'status-before',
			status: 400,
			body: { message: 'Entry rejected by a data source rule' },
		});
		refuseCheck();
		const result = await runSync(
			sandbox(),
			id,
			rows,
			{ syncOptions: { chunkSize: 2 } },
			{
				continueOnFail,
			},
		);
		return { id, result };
	}

	it('keeps the commit failure as the error and adds the failed check to it', async () => {
		const { result } = await runBothFailing(false);

		expect(result.error?.message).toBe(
			'Sync stopped at commit 1 of 2 (insert of 2 rows): Entry rejected by a data source rule',
		);
		const description = result.error?.description ?? '';
		expect(description).toMatch(
			/^Commit 2 of 2 landed \(2 inserted, 0 updated, 0 deleted\)\. Checking the keys for duplicates failed too \(Aggregation refused\), so another run inserting the same keys meanwhile could have left a key on two entries\. /,
		);
		expect(description).toContain(RERUN_IS_SAFE);
		expect(checksOf(sandbox())).toHaveLength(1);
	});

	it('with Continue On Fail, the summary names the failed commit and the failed check', async () => {
		const { id, result } = await runBothFailing(true);

		expect(result.json[0]).toMatchObject({
			inserted: 2,
			commits: 1,
			failedCommit: 1,
			totalCommits: 2,
			duplicateCheckError: 'Aggregation refused',
			error:
				'Sync stopped at commit 1 of 2 (insert of 2 rows): Entry rejected by a data source rule',
		});
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'c@x.io' }, { Email: 'd@x.io' }]);
	});

	it('a failed check alone, with Continue On Fail, still reports what landed', async () => {
		const id = await dataSourceWith(sandbox(), existing);
		refuseCheck();
		const result = await runSync(sandbox(), id, input, {}, { continueOnFail: true });

		expect(result.json[0]).toMatchObject({
			inserted: 2,
			commits: 1,
			duplicateCheckError: expect.stringMatching(/Aggregation refused$/),
			error:
				'Sync wrote its rows, but checking the keys for duplicates failed: Aggregation refused',
			mayHaveLanded: { commits: 0, inserted: 0, updated: 0, deleted: 0 },
		});
		expect(result.json[0]).not.toHaveProperty('failedCommit');
	});
});
