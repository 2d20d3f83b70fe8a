import { startDeadline } from '../../nodes/Fliplet/transport/deadline';
import { MAX_FAULT_RETRIES } from '../../nodes/Fliplet/transport/retryPolicy';
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();

const getManyApps = { resource: 'app', operation: 'getMany', returnAll: true };
const publishApp11 = {
	resource: 'app',
	operation: 'publish',
	app: { __rl: true, mode: 'id', value: '11' },
	releaseType: 'forced',
	changelog: 'Hotfix',
};

/** The sandbox's credential with a data timeout of `seconds`. */
function withTimeout(seconds: number, token: string = TOKENS.org) {
	const { flipletApi } = sandboxCredential(sandbox(), token);
	return { flipletApi: { ...flipletApi, timeout: seconds } };
}

const publishedVersion = () =>
	sandbox().state.apps.find((app: { id: number }) => app.id === 10).version as number;

describe('one deadline per request: connect, upload and the whole answer', () => {
	// A byte every 400 ms: the apps list would take minutes to arrive, and the socket is never idle.
	const drip = (method?: string) =>
		sandbox().injectFault({ mode: 'drip-after', count: 1, dripMs: 400, method });

	it('a read whose answer trickles in is abandoned at the deadline and asked again', async () => {
		drip();
		const result = await runNode({ parameters: getManyApps, credentials: withTimeout(2) });
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		const [trickled, again] = apiRequests(sandbox(), /^\/v1\/apps$/);
		await Promise.all([trickled.closed, again.closed]);
		// The client hung up on the trickle; the second answer came whole.
		expect(trickled.abandoned).toBe(true);
		expect(again.abandoned).toBeUndefined();
		expect(again.status).toBe(200);
	}, 30_000);

	it('a publish whose answer trickles in: one attempt, given up at the deadline, may have been processed', async () => {
		drip('POST');
		const result = await runNode({ parameters: publishApp11, credentials: withTimeout(2) });
		const requests = apiRequests(sandbox(), /publish$/);
		expect(requests).toHaveLength(1);
		await requests[0].closed;
		expect(requests[0].abandoned).toBe(true);
		expect(result.error?.message).toBe('Fliplet API timeout: no complete answer within 2 s');
		expect(result.error?.description).toMatch(/longer "Data Timeout \(Seconds\)"/);
		expect(result.error?.description).toMatch(/may already have been processed/);
		// It was: the trickle was its answer.
		expect(publishedVersion()).toBe(2);
	}, 30_000);

	it('the deadline leaves no timer behind once the answer is in', () => {
		jest.useFakeTimers();
		try {
			const deadline = startDeadline(60_000);
			expect(jest.getTimerCount()).toBe(1);
			deadline.clear();
			expect(jest.getTimerCount()).toBe(0);
			expect(deadline.signal.aborted).toBe(false);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('an answer cut mid-way is a network fault', () => {
	const cut = (method?: string) => sandbox().injectFault({ mode: 'cut-after', count: 1, method });

	it('a read is asked again, and succeeds', async () => {
		cut();
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		expect(apiRequests(sandbox(), /^\/v1\/apps$/).map((request) => request.status)).toEqual([
			200, 200,
		]);
	});

	it('a publish is not sent again, and the error says it may have been processed', async () => {
		cut('POST');
		const result = await runNode({
			parameters: publishApp11,
			credentials: sandboxCredential(sandbox()),
		});
		expect(apiRequests(sandbox(), /publish$/)).toHaveLength(1);
		expect(result.error?.message).toBe(
			"The Fliplet API's answer was cut off mid-way: stream has been aborted",
		);
		expect(result.error?.description).toMatch(/may already have been processed/);
		expect(result.error?.description).not.toMatch(/retried|attempts|sent \d+ times/);
		expect(publishedVersion()).toBe(2);
	});
});

describe('every error says how many attempts were made, and keeps its first cause', () => {
	it('a read cut once, then refused with 503: the attempts are counted and the cut is named', async () => {
		sandbox().injectFault({ mode: 'cut-after', count: 1 });
		sandbox().injectFault({
			mode: 'status-before',
			status: 503,
			count: 100,
			body: { message: 'Unavailable' },
		});
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		const attempts = MAX_FAULT_RETRIES + 1;
		expect(apiRequests(sandbox())).toHaveLength(attempts);
		expect(result.error?.message).toBe(`Unavailable (after ${attempts} attempts)`);
		expect(result.error?.description).toBe(
			`The Fliplet API failed. The request was sent ${attempts} times, with backoff in between, before giving up. Try again later. The first attempt met: stream has been aborted.`,
		);
	});

	it('a read that is not retried says it was sent once, not that it was retried', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 400, body: { message: 'Bad query' } });
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(apiRequests(sandbox())).toHaveLength(1);
		expect(result.error?.message).toBe('Bad query');
		expect(result.error?.description).not.toMatch(/retried|attempts/);
	});
});
