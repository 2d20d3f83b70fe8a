/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import {
	commitBody,
	COMMITS_IN_FLIGHT,
	MAX_COMMIT_BYTES,
} from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { MAX_BYTES_IN_FLIGHT } from '../../nodes/Fliplet/actions/entry/sync/sendCommits';
import { DEFAULT_CHUNK_SIZE } from '../../nodes/Fliplet/actions/entry/sync/description';
import { DATA_SOURCE_LIMIT } from '../../nodes/Fliplet/transport/pacing';
import { onSandboxRequest, useSandbox, type SandboxRequest } from '../harness';
import type { CommitFault } from '../reliability/commitFaults';
import { commitArrival, commitsOf, dataSourceWith, runSync, storedData } from './fixtures';

const sandbox = useSandbox();

afterEach(() => {
	sandbox().rateLimiter.enabled = false;
});

const rows = (count: number, extra: IDataObject = {}): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({ Email: `user${n}@x.io`, N: n, ...extra }));

const emails = (stored: IDataObject[]) => stored.map((row) => row.Email);

/** Two full default chunks and a part of one. */
const MANY = DEFAULT_CHUNK_SIZE * 2 + DEFAULT_CHUNK_SIZE / 2;

describe('Sync chunks', () => {
	it(`commits ${MANY} new rows in chunks of ${DEFAULT_CHUNK_SIZE} by default`, async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, rows(MANY));

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: MANY });
		// Commits overlap, so a smaller last chunk may reach the server before a larger one.
		const sizes = commitsOf(sandbox())
			.map((commit) => commit.body.entries.length)
			.sort((a, b) => b - a);
		expect(sizes).toEqual([DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_SIZE / 2]);
		const stored = storedData(sandbox(), id);
		expect(stored).toHaveLength(MANY);
		expect(new Set(emails(stored)).size).toBe(MANY);
	});

	it('puts fewer wide rows in a commit, so none exceeds its byte bound', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// 2,000 rows of about 10 KB: 20 MB in all, more than one commit may carry.
		const wide = rows(2000).map((row) => ({ ...row, Notes: `${row.Email} `.repeat(700) }));
		// Whether each commit arrived after the one before it was answered.
		const afterAnswer: boolean[] = [];
		onSandboxRequest(sandbox(), (request) => {
			if (!/\/commit$/.test(request.path)) return;
			const before = sandbox().requests.filter(
				(other) => other !== request && /\/commit$/.test(other.path),
			);
			afterAnswer.push(before.every((commit) => commit.status !== undefined));
		});
		const result = await runSync(sandbox(), id, wide);

		expect(result.error).toBeUndefined();
		const commits = commitsOf(sandbox());
		expect(commits.length).toBeGreaterThan(1);
		for (const commit of commits) expect(commit.bytes).toBeLessThanOrEqual(MAX_COMMIT_BYTES);
		expect(commits.reduce((sum, commit) => sum + commit.body.entries.length, 0)).toBe(2000);
		expect(storedData(sandbox(), id)).toEqual(wide);
		// Commits this large go one at a time: only small ones share the link (MAX_BYTES_IN_FLIGHT).
		expect(afterAnswer).toEqual(commits.map(() => true));
	});

	const faults: Array<[string, CommitFault, boolean]> = [
		['refused by a 5xx before it was processed', { mode: 'status-before', status: 500 }, false],
		['lost after it was processed', { mode: 'drop-after' }, true],
	];
	it.each(faults)(
		'a default-size insert chunk %s loses nothing: its keys are read and the run completes without duplicates',
		async (_name, fault, stored) => {
			const id = await dataSourceWith(sandbox(), []);
			const input = rows(MANY);
			// The second chunk, whichever order the commits on their way arrive in (the smaller
			// third one may arrive first).
			const secondChunk = input[DEFAULT_CHUNK_SIZE].Email;
			sandbox().injectFault({
				...fault,
				method: 'POST',
				path: '/commit$',
				match: (body) => body?.entries?.[0]?.data?.Email === secondChunk,
			});

			const result = await runSync(sandbox(), id, input);

			// Inserts are never re-sent blindly: the failed chunk's keys were read first, and only
			// the rows not stored went again.
			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({
				inserted: MANY,
				duplicatesRemoved: 0,
				recovered: {
					commits: 1,
					rowsFound: stored ? DEFAULT_CHUNK_SIZE : 0,
					rowsResent: stored ? 0 : DEFAULT_CHUNK_SIZE,
				},
			});
			const sent = commitsOf(sandbox()).reduce((sum, c) => sum + c.body.entries.length, 0);
			expect(sent).toBe(MANY + (stored ? 0 : DEFAULT_CHUNK_SIZE));
			const after = storedData(sandbox(), id);
			expect(after).toHaveLength(MANY);
			expect(new Set(emails(after)).size).toBe(MANY);
		},
	);
});

/**
 * The `held`-th commit to arrive is handled only once the `next`-th has arrived (or 5 s later, if
 * Sync waits for its answer before sending that one). Tells, after the run, whether the held
 * commit had been answered when the next one arrived.
 */
function holdCommitUntil(held: number, next: number): () => boolean | undefined {
	let heldCommit: SandboxRequest | undefined;
	let answeredFirst: boolean | undefined;
	let seen = 0;
	onSandboxRequest(sandbox(), (request) => {
		if (!/\/commit$/.test(request.path)) return;
		if (++seen === held) heldCommit = request;
		if (seen === next) answeredFirst = heldCommit?.status !== undefined;
	});
	const arrival = commitArrival(sandbox(), next, 5000);
	sandbox().beforeHandling({ path: '/commit$', nth: held, run: () => arrival });
	return () => answeredFirst;
}

describe('Sync commits on their way', () => {
	it('sends the next commit as soon as any answer is in, not only the oldest', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// The first commit to arrive is held; the others are answered at once.
		const heldAnsweredFirst = holdCommitUntil(1, COMMITS_IN_FLIGHT + 1);
		const count = (COMMITS_IN_FLIGHT + 2) * 4;
		const result = await runSync(sandbox(), id, rows(count), { syncOptions: { chunkSize: 4 } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: count });
		expect(commitsOf(sandbox()).length).toBeGreaterThan(COMMITS_IN_FLIGHT);
		// The commit after those that went together left while the held one was unanswered.
		expect(heldAnsweredFirst()).toBe(false);
		const stored = emails(storedData(sandbox(), id));
		expect(stored).toHaveLength(count);
		expect(new Set(stored)).toEqual(new Set(emails(rows(count))));
	});

	it('counts the bytes of an answered commit off: the next large one goes while another is on its way', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// Three commits of 6 MB: two fit in MAX_BYTES_IN_FLIGHT (16 MB), not three.
		const blob = 'x'.repeat(6 * 1024 * 1024);
		const input = rows(3).map((row) => ({ ...row, Blob: blob }));
		const heldAnsweredFirst = holdCommitUntil(2, 3);
		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 1 } });

		expect(result.error).toBeUndefined();
		expect(MAX_BYTES_IN_FLIGHT).toBeLessThan(3 * blob.length);
		// Once the first was answered, the third went while the second was still held.
		expect(heldAnsweredFirst()).toBe(false);
		expect(storedData(sandbox(), id)).toHaveLength(3);
	});

	it('lets commits go together up to exactly the bytes allowed on their way', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// Two insert commits of one row each whose bodies make MAX_BYTES_IN_FLIGHT together.
		const bodyBytes = (row: IDataObject) =>
			Buffer.byteLength(
				JSON.stringify(
					commitBody(
						{ kind: 'insert', idempotent: false, updates: [], inserts: [0], deletes: [] },
						[row],
						{ chunkSize: 1, merge: true, runHooks: [], outputRows: false },
					),
				),
			);
		const input = rows(2).map((row) => ({ ...row, Blob: '' }));
		const blob = 'x'.repeat(MAX_BYTES_IN_FLIGHT / 2 - bodyBytes(input[0]));
		for (const row of input) row.Blob = blob;
		expect(input.map(bodyBytes)).toEqual([MAX_BYTES_IN_FLIGHT / 2, MAX_BYTES_IN_FLIGHT / 2]);
		const heldAnsweredFirst = holdCommitUntil(1, 2);
		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 1 } });

		expect(result.error).toBeUndefined();
		expect(commitsOf(sandbox()).map((commit) => commit.bytes)).toEqual(input.map(bodyBytes));
		// The second went while the first was held.
		expect(heldAnsweredFirst()).toBe(false);
	});

	it('reports the commits that landed in plan order, whatever order their answers came in', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const input = rows(3);
		const first = (body: any) => body?.entries?.[0]?.data?.Email;
		// Commit 1 is handled once commit 2 was answered (and its answer had time to arrive);
		// commit 3 is refused.
		let secondAnswered!: () => void;
		const answered = new Promise<void>((resolve) => {
			secondAnswered = resolve;
		});
		const fallback = setTimeout(secondAnswered, 5000);
		// Before each commit's handler (one interleave at a time: the sandbox awaits each in turn).
		const beforeEachCommit = () =>
			sandbox().beforeHandling({
				path: '/commit$',
				run: async (_state, body) => {
					beforeEachCommit();
					if (first(body) === input[1].Email) setTimeout(secondAnswered, 100);
					if (first(body) === input[0].Email) await answered;
				},
			});
		beforeEachCommit();
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			method: 'POST',
			path: '/commit$',
			match: (body) => first(body) === input[2].Email,
		});
		const result = await runSync(
			sandbox(),
			id,
			input,
			{ syncOptions: { chunkSize: 1, outputRows: true } },
			{ continueOnFail: true },
		);
		clearTimeout(fallback);

		expect(result.json[0]).toMatchObject({ inserted: 2, commits: 2, failedCommit: 3 });
		expect(String(result.json[0].description)).toMatch(/^Commits 1–2 of 3 landed \(2 inserted/);
		expect(result.json.slice(1).map((row) => row.key)).toEqual(emails(input.slice(0, 2)));
	});
});

describe('Request pacing', () => {
	it(`keeps one execution's data-source requests within ${DATA_SOURCE_LIMIT.limit} per ${DATA_SOURCE_LIMIT.windowMs / 1000} s instead of being refused`, async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().rateLimiter.enabled = true;
		// One commit per row: a read, 230 commits and a check, more than one window allows.
		const input = rows(DATA_SOURCE_LIMIT.limit + 30);
		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 1 } });

		expect(result.error).toBeUndefined();
		const requests = sandbox().requests;
		expect(requests.length).toBeGreaterThan(DATA_SOURCE_LIMIT.limit);
		expect(commitsOf(sandbox())).toHaveLength(input.length);
		expect(requests.filter((request) => request.status === 429)).toHaveLength(0);
		// As the server counted them: no window ever held more than the limit.
		for (let n = DATA_SOURCE_LIMIT.limit; n < requests.length; n++) {
			const earlier = requests[n - DATA_SOURCE_LIMIT.limit];
			expect(requests[n].at - earlier.at).toBeGreaterThanOrEqual(DATA_SOURCE_LIMIT.windowMs);
		}
		const stored = storedData(sandbox(), id);
		expect(stored).toHaveLength(input.length);
		expect(new Set(emails(stored)).size).toBe(input.length);
	});
});
