import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../harness';
import { commitsOf, dataSourceWith, runSync, storedData } from '../sync/fixtures';

const sandbox = useSandbox();

let restoreLimits: (() => void) | undefined;

/** Turns the sandbox's data-source limit on at `limit` per `windowMs`, until the test ends. */
function limitDataSources(limit: number, windowMs: number): void {
	const limiter = sandbox().rateLimiter;
	const { limits, enabled } = limiter;
	const documented = limits.dataSources;
	restoreLimits = () => {
		limits.dataSources = documented;
		limiter.enabled = enabled;
	};
	limits.dataSources = { limit, windowMs };
	limiter.enabled = true;
}

afterEach(() => {
	restoreLimits?.();
	restoreLimits = undefined;
});

/** The rows each accepted commit carried. */
const rowsPerAcceptedCommit = () =>
	commitsOf(sandbox())
		.filter((commit) => commit.status === 200)
		.map((commit) => (commit.body.entries as unknown[]).length);

const sum = (sizes: number[]) => sizes.reduce((total, size) => total + size, 0);

/**
 * The data-source rate of the platform (200 requests per 10 s per user, 20 per second) with its
 * window shrunk tenfold, so the storm waits out five windows in seconds, not a minute.
 */
const LIMIT = 20;
const WINDOW_MS = 1_000;
const ROWS = 10_000;
/** 100 commits and a read: far more than one window's worth. */
const CHUNK_SIZE = 100;

/**
 * The earliest the n-th request (0-based) may go out under a sliding window of LIMIT per
 * WINDOW_MS is floor(n / LIMIT) windows after the first, however fast the client is.
 */
const minimumMs = (requests: number) => Math.floor((requests - 1) / LIMIT) * WINDOW_MS;

describe('a 429 storm', () => {
	it(`syncs ${ROWS} rows in chunks of ${CHUNK_SIZE} without an error, waiting out every 429`, async () => {
		const id = await dataSourceWith(sandbox(), []);
		const input: IDataObject[] = Array.from({ length: ROWS }, (_, n) => ({
			Email: `user${n}@x.io`,
			N: n,
		}));
		limitDataSources(LIMIT, WINDOW_MS);

		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: CHUNK_SIZE } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: ROWS });
		const requests = sandbox().requests;
		const refused = requests.filter((request) => request.status === 429).length;
		const accepted = requests.filter((request) => request.status === 200);
		expect(refused).toBeGreaterThan(0);
		// Each row went in exactly one accepted commit of at most a chunk (the first ones are
		// smaller, so that commits sent together end one after another).
		const sizes = rowsPerAcceptedCommit();
		expect(sum(sizes)).toBe(ROWS);
		expect(Math.max(...sizes)).toBe(CHUNK_SIZE);

		// Every accepted request respected the window; how close to it the run gets is a speed
		// figure, printed by the load benchmark (npm run bench), not asserted in a timed test.
		const span = requests[requests.length - 1].at - requests[0].at;
		expect(minimumMs(accepted.length)).toBeGreaterThanOrEqual(5 * WINDOW_MS);
		expect(span).toBeGreaterThanOrEqual(minimumMs(accepted.length));

		const stored = storedData(sandbox(), id);
		expect(stored).toHaveLength(ROWS);
		expect(new Set(stored.map((row) => row.Email)).size).toBe(ROWS);
	}, 120_000);

	it('lands every commit when commits in flight keep losing the race for each freed place', async () => {
		// One request per window: every place the window frees is wanted by the commits on their way
		// and by the next one. A commit can lose that race more times than the node waits out a
		// refusal with nothing served; it still lands, because others are served meanwhile.
		const id = await dataSourceWith(sandbox(), []);
		const rows = 400;
		const input: IDataObject[] = Array.from({ length: rows }, (_, n) => ({
			Email: `race${n}@x.io`,
		}));
		limitDataSources(1, 60);

		const result = await runSync(sandbox(), id, input, { syncOptions: { chunkSize: 10 } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: rows });
		expect(storedData(sandbox(), id)).toHaveLength(rows);
		expect(sandbox().requests.some((request) => request.status === 429)).toBe(true);
		// Each row went in exactly one accepted commit: a refused commit was sent again, never twice.
		expect(sum(rowsPerAcceptedCommit())).toBe(rows);
	}, 120_000);
});
