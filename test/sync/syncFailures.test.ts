/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { clientIdOf, COMMITS_IN_FLIGHT } from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { RERUN_IS_SAFE } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { MAX_FAULT_RETRIES } from '../../nodes/Fliplet/transport/retryPolicy';
import { useSandbox, type Sandbox } from '../harness';
import { faultNthCommit, type CommitFault } from '../reliability/commitFaults';
import {
	commitArrival,
	commitsOf,
	dataSourceWith,
	queriesOf,
	runSync,
	storedData,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

afterEach(() => {
	// faultNthCommit wraps the request log's push; the log array outlives each test.
	delete (sandbox().requests as any).push;
});

/**
 * Remote: a, b (both changed by the input), c, d (absent from it). Input adds e and f.
 * Mirror mode with chunks of 2: update [a, b], insert [e, f], delete [c, d].
 */
const remote = ['a', 'b', 'c', 'd'].map((name, n) => ({ Email: `${name}@x.io`, N: n }));
const input: IDataObject[] = [
	{ Email: 'a@x.io', N: 10 },
	{ Email: 'b@x.io', N: 11 },
	{ Email: 'e@x.io', N: 4 },
	{ Email: 'f@x.io', N: 5 },
];
const mirrorInChunksOf2 = { syncMode: 'mirror', syncOptions: { chunkSize: 2 } };

/** The API's own refusal of a commit, e.g. a rule of the data source. */
const REFUSAL = { message: 'Entry rejected by a data source rule' };

/**
 * The n-th commit is answered `status` (with the API's refusal text) before it is processed; with
 * `whileCommit`, only once that later commit has arrived (so it is on its way when this one fails).
 */
function refuseNthCommit(n: number, status: number, whileCommit?: number) {
	const waitFor = whileCommit === undefined ? undefined : commitArrival(sandbox(), whileCommit);
	const fault: CommitFault = { mode: 'status-before', status, body: REFUSAL, waitFor };
	faultNthCommit(sandbox(), n, fault);
}

describe('Entry → Sync: a commit that fails', () => {
	it('a refused delete commit names its rows, what landed before it, and passes on the API advice', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		refuseNthCommit(3, 400);
		const result = await runSync(sandbox(), id, input, mirrorInChunksOf2);

		expect(result.error?.message).toBe(
			`Sync stopped at commit 3 of 3 (delete of 2 rows): ${REFUSAL.message}`,
		);
		const description = result.error?.description ?? '';
		expect(
			description.startsWith(
				`Commits 1–2 of 3 landed (2 inserted, 2 updated, 0 deleted). ${RERUN_IS_SAFE} `,
			),
		).toBe(true);
		// The API's 4xx advice (what to fix) follows the re-run note.
		expect(description.length).toBeGreaterThan(
			`Commits 1–2 of 3 landed (2 inserted, 2 updated, 0 deleted). ${RERUN_IS_SAFE} `.length,
		);
		// A refusal is not re-sent: the three commits went out once each.
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([200, 200, 400]);
		expect(storedData(sandbox(), id).map((row) => row.Email)).toEqual(
			expect.arrayContaining(['c@x.io', 'd@x.io', 'e@x.io', 'f@x.io']),
		);
	});

	it.each([
		[1, 'update', /^Commit 2 of 3 landed \(2 inserted, 0 updated, 0 deleted\)\. /],
		[2, 'insert', /^Commit 1 of 3 landed \(0 inserted, 2 updated, 0 deleted\)\. /],
	])(
		'a refused commit %i (%s of 2 rows) says what landed beside it, and passes on the advice',
		async (n, kind, landed) => {
			const id = await dataSourceWith(sandbox(), remote);
			// The update (commit 1) is refused once the insert (commit 2) is on its way.
			refuseNthCommit(n, 400, n === 1 ? 2 : undefined);
			const result = await runSync(sandbox(), id, input, mirrorInChunksOf2);

			expect(result.error?.message).toBe(
				`Sync stopped at commit ${n} of 3 (${kind} of 2 rows): ${REFUSAL.message}`,
			);
			expect(result.error?.description).toMatch(landed);
			expect(result.error?.description).toContain(`${RERUN_IS_SAFE} `);
			expect(result.error?.description?.endsWith(RERUN_IS_SAFE)).toBe(false);
			// The delete commit waits for every commit before it: after a failure it is never sent.
			expect(commitsOf(sandbox())).toHaveLength(2);
			expect(storedData(sandbox(), id).map((row) => row.Email)).toEqual(
				expect.arrayContaining(['c@x.io', 'd@x.io']),
			);
		},
	);

	it('a server failure of an insert commit: its keys are read, its rows sent again, and the mirror delete goes last', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		refuseNthCommit(2, 500);
		const result = await runSync(sandbox(), id, input, mirrorInChunksOf2);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 2,
			updated: 2,
			deleted: 2,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 2 },
		});
		// An insert is only sent again once its keys were read and found absent.
		const order = [...commitsOf(sandbox()), ...queriesOf(sandbox())]
			.sort((a, b) => a.at - b.at)
			.map((request) =>
				request.path.endsWith('query')
					? `read${request.body.where ? ' keys' : ''}`
					: `${request.body.delete ? 'delete' : request.body.entries[0].id ? 'update' : 'insert'} ${request.status}`,
			);
		expect(order).toEqual([
			'read',
			'update 200',
			'insert 500',
			'read keys',
			'insert 200',
			'delete 200',
			'read keys',
		]);
		expect(storedData(sandbox(), id)).toEqual(input);
	});

	it('with Continue On Fail the summary counts only what landed and names the failed commit', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		refuseNthCommit(3, 400);
		const result = await runSync(sandbox(), id, input, mirrorInChunksOf2, {
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 2,
			updated: 2,
			deleted: 0,
			commits: 2,
			failedCommit: 3,
			totalCommits: 3,
			error: `Sync stopped at commit 3 of 3 (delete of 2 rows): ${REFUSAL.message}`,
		});
		expect(String(result.json[0].description)).toContain(RERUN_IS_SAFE);
	});
});

describe('Entry → Sync: a commit that fails while the next ones are on their way', () => {
	const rows = (count: number) =>
		Array.from({ length: count }, (_, n) => ({ Email: `r${n}@x.io`, N: n }));
	const inChunksOf2 = { syncOptions: { chunkSize: 2 } };
	const inChunksOf = (size: number) => ({ syncOptions: { chunkSize: size } });

	it('a server failure while the next commit was on its way: that one counts, the failed one is read and sent again', async () => {
		const id = await dataSourceWith(sandbox(), []);
		refuseNthCommit(1, 500, 2);
		const result = await runSync(sandbox(), id, rows(4), inChunksOf2);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 4,
			commits: 2,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 2 },
		});
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([500, 200, 200]);
		expect(storedData(sandbox(), id)).toEqual([...rows(4).slice(2), ...rows(4).slice(0, 2)]);
	});

	it('sends nothing after the commits already on their way, and counts only those that landed', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const last = COMMITS_IN_FLIGHT;
		// More commits than go at once: the first ones grow (1, 2, 3, 4 rows in chunks of 4), so
		// commit n holds n rows up to the last that may go together, and the two after it 4 each.
		const sizes = [...Array.from({ length: last }, (_, n) => n + 1), last, last];
		const total = sizes.length;
		const rowCount = sizes.reduce((sum, size) => sum + size, 0);
		const onTheWay = sizes.slice(1, last).reduce((sum, size) => sum + size, 0);
		// Commits 2 to the last that may go together are on their way when commit 1 fails: they
		// land, but their answers come after its failure, so the two after them are never sent.
		refuseNthCommit(1, 400, last);
		for (let n = 2; n <= last; n++) faultNthCommit(sandbox(), n, { mode: 'delay', delayMs: 300 });
		const result = await runSync(sandbox(), id, rows(rowCount), inChunksOf(last), {
			continueOnFail: true,
		});

		expect(result.json[0]).toMatchObject({
			inserted: onTheWay,
			commits: last - 1,
			failedCommit: 1,
			totalCommits: total,
			error: `Sync stopped at commit 1 of ${total} (insert of 1 rows): ${REFUSAL.message}`,
		});
		expect(String(result.json[0].description)).toMatch(
			new RegExp(`^Commits 2–${last} of ${total} landed \\(${onTheWay} inserted, 0 updated`),
		);
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([
			400,
			...Array.from({ length: last - 1 }, () => 200),
		]);
		expect(commitsOf(sandbox()).map((commit) => commit.body.entries.length)).toEqual(
			sizes.slice(0, last),
		);
		expect(storedData(sandbox(), id)).toEqual(rows(rowCount).slice(1, 1 + onTheWay));
		// The keys that landed were checked for duplicates, as after any insert.
		expect(queriesOf(sandbox()).filter((query) => query.body.aggregate)).toHaveLength(1);
	});

	it('a commit that fails after one on its way failed is not the one reported', async () => {
		const id = await dataSourceWith(sandbox(), []);
		refuseNthCommit(1, 400, 2);
		refuseNthCommit(2, 400);
		const result = await runSync(sandbox(), id, rows(6), inChunksOf2, { continueOnFail: true });

		expect(result.json[0]).toMatchObject({ inserted: 2, commits: 1, failedCommit: 1 });
		expect(String(result.json[0].description)).toMatch(/^Commit 3 of 3 landed \(2 inserted/);
		expect(storedData(sandbox(), id)).toEqual(rows(6).slice(4));
	});
});

type Fault = Parameters<Sandbox['injectFault']>[0];

/** The next read (data source query) meets `fault`, e.g. a 503 or a 200 with a body of our own. */
const faultRead = (fault: Omit<Fault, 'method' | 'path'>) =>
	sandbox().injectFault({ ...fault, method: 'POST', path: '/data/query$' });

/** The read is answered 200 with `body` instead of the entries. */
const answerRead = (body: unknown) => faultRead({ mode: 'status-before', status: 200, body });

describe('Entry → Sync: the read', () => {
	it('is retried after a transient server fault, and the run completes', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		faultRead({ mode: 'status-before', status: 503 });
		const result = await runSync(sandbox(), id, input);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, updated: 2, unchanged: 0 });
		expect(queriesOf(sandbox())[0].status).toBe(503);
		expect(queriesOf(sandbox())[1].status).toBe(200);
		// Nothing read twice: the two known keys were updated, not inserted again.
		expect(storedData(sandbox(), id)).toHaveLength(6);
	});

	it('is retried after a dropped connection', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		faultRead({ mode: 'drop-before' });
		const result = await runSync(sandbox(), id, remote);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, unchanged: 4 });
	});

	it('that keeps failing stops the run before any write, and says so', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		faultRead({ mode: 'status-before', status: 503, count: MAX_FAULT_RETRIES + 1 });
		const result = await runSync(sandbox(), id, input, { syncMode: 'mirror' });

		expect(result.error).toBeDefined();
		expect(queriesOf(sandbox())).toHaveLength(MAX_FAULT_RETRIES + 1);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(remote);
	});

	const malformed: Array<[string, unknown]> = [
		['an entry without id', { entries: [{ data: { Email: 'a@x.io' } }] }],
		['an id that is not a number', { entries: [{ id: 'abc', data: {} }] }],
		['an id that is not whole', { entries: [{ id: 1.5, data: {} }] }],
		['data that is a list', { entries: [{ id: 3, data: [{ Email: 'a@x.io' }] }] }],
		['data that is text', { entries: [{ id: 3, data: 'a@x.io' }] }],
	];

	it.each(malformed)('refuses an answer with %s, changing nothing', async (_name, answer) => {
		const id = await dataSourceWith(sandbox(), remote);
		answerRead(answer);
		const result = await runSync(sandbox(), id, input, { syncMode: 'mirror' });

		expect(result.error?.message).toBe(
			'Unexpected response from Fliplet: an entry without id or data',
		);
		expect(result.error?.description).toMatch(/nothing was changed/);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(remote);
	});

	it('refuses a page whose entries are not in id order (the read relies on it), changing nothing', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		answerRead({
			entries: [
				{ id: 5, data: { Email: 'b@x.io' } },
				{ id: 3, data: { Email: 'a@x.io' } },
			],
		});
		const result = await runSync(sandbox(), id, input, { syncMode: 'mirror' });

		expect(result.error?.message).toBe('Unexpected response from Fliplet: entries not in id order');
		expect(result.error?.description).toMatch(/nothing was changed/i);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(remote);
	});

	it('refuses an answer without an entries list', async () => {
		const id = await dataSourceWith(sandbox(), remote);
		answerRead({ rows: [] });
		const result = await runSync(sandbox(), id, input, { syncMode: 'mirror' });

		expect(result.error?.message).toMatch(/^Unexpected response from Fliplet/);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it.each([
		['without data', { id: 0 }],
		['with null data', { id: 0, data: null }],
	])('takes an entry %s as an entry with no columns', async (_name, entry) => {
		const id = await dataSourceWith(sandbox(), []);
		const keyed = { id: 2, data: { Email: 'b@x.io' } };
		answerRead({ entries: [{ ...entry, id: 1 }, keyed], pagination: { total: 2 } });
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, unchanged: 0 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io' }]);
	});
});

describe('Entry → Sync: the ids of new entries', () => {
	it('hands each new entry id back to the item it came from, over several insert commits', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io', N: 0 }]);
		const rows = [
			{ Email: 'old@x.io', N: 1 },
			...Array.from({ length: 5 }, (_, n) => ({ Email: `new${n}@x.io`, N: n })),
		];
		const result = await runSync(sandbox(), id, rows, {
			syncOptions: { chunkSize: 2, outputRows: true },
		});

		expect(result.error).toBeUndefined();
		const idByEmail = new Map(
			storedEntries(sandbox(), id).map((entry) => [entry.data.Email, entry.id]),
		);
		const inserts = result.items.filter((item) => item.json.action === 'insert');
		expect(inserts).toHaveLength(5);
		for (const item of inserts) {
			const { item: itemIndex } = item.pairedItem as { item: number };
			expect(item.json.data).toEqual(rows[itemIndex]);
			expect(item.json.id).toBe(idByEmail.get(rows[itemIndex].Email));
			expect(item.json.idNote).toBeUndefined();
		}
		expect(new Set(inserts.map((item) => item.json.id)).size).toBe(5);
	});

	it('keeps the ids a malformed clientIds reply does give, and says which are missing', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = Array.from({ length: 4 }, (_, n) => ({ Email: `p${n}@x.io` }));
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: {
				clientIds: [
					null,
					'n8n',
					{ clientId: clientIdOf(0), id: 'not a number' },
					{ clientId: clientIdOf(1), id: 41 },
					{ clientId: 'another-client-row', id: 42 },
					{ clientId: clientIdOf(2), id: 43.5 },
					{ clientId: clientIdOf(3), id: '44' },
				],
			},
			method: 'POST',
			path: '/commit$',
		});
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.error).toBeUndefined();
		const byItem = new Map(
			result.items.slice(1).map((item) => [(item.pairedItem as { item: number }).item, item.json]),
		);
		expect(byItem.get(1)).toEqual({ action: 'insert', id: 41, key: 'p1@x.io', data: rows[1] });
		expect(byItem.get(3)).toEqual({ action: 'insert', id: 44, key: 'p3@x.io', data: rows[3] });
		for (const itemIndex of [0, 2]) {
			expect(byItem.get(itemIndex)).toMatchObject({ action: 'insert', id: null });
			expect(byItem.get(itemIndex)?.idNote).toMatch(/did not return the id/);
		}
		// The rows themselves landed.
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('gives every new row a note when the reply has no clientIds list', async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: { clientIds: { [clientIdOf(0)]: 7 } },
			method: 'POST',
			path: '/commit$',
		});
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.json.slice(1)).toEqual(
			rows.map((data) => ({
				action: 'insert',
				id: null,
				key: data.Email,
				data,
				idNote: expect.stringMatching(/did not return the id/),
			})),
		);
	});

	it('counts the rows of a commit answered 200 with an empty body as landed, each with a note', async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: Buffer.alloc(0),
			method: 'POST',
			path: '/commit$',
		});
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, updated: 0 });
		expect(result.json[0]).not.toHaveProperty('error');
		expect(result.json.slice(1).map((row) => [row.id, row.idNote])).toEqual([
			[null, expect.stringMatching(/did not return the id/)],
			[null, expect.stringMatching(/did not return the id/)],
		]);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('a dry run lists the rows it would insert, with no id since nothing was sent', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }], {
			syncOptions: { dryRun: true, outputRows: true },
		});

		expect(result.json[0]).toMatchObject({ inserted: 1, dryRun: true, commits: 0 });
		expect(result.json[1]).toEqual({
			action: 'insert',
			id: null,
			key: 'a@x.io',
			data: { Email: 'a@x.io' },
			idNote: expect.stringMatching(/^Dry run/),
		});
		expect(commitsOf(sandbox())).toHaveLength(0);
	});
});
