import { startDeadline } from '../../nodes/Fliplet/transport/deadline';
import { MAX_FAULT_RETRIES } from '../../nodes/Fliplet/transport/retryPolicy';
import {
	apiRequests,
	publishApp11,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

const getManyApps = { resource: 'app', operation: 'getMany', returnAll: true };

function credentialWithTimeout(seconds: number) {
	const { flipletApi } = sandboxCredential(sandbox());
	return { flipletApi: { ...flipletApi, timeout: seconds } };
}

/** App → Get Many with the organization token (it reaches both apps). */
const getApps = () =>
	runNode({ parameters: getManyApps, credentials: sandboxCredential(sandbox(), TOKENS.org) });

const publishedVersion = () =>
	sandbox().state.apps.find((app: { id: number }) => app.id === 10).version as number;

describe('reads are retried after faults', () => {
	it('App → Get Many survives two 500s and a dropped connection', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 500, count: 2, path: '^/v1/apps$' });
		sandbox().injectFault({ mode: 'drop-before', count: 1, path: '^/v1/apps$' });
		const result = await getApps();
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		const requests = apiRequests(sandbox(), /^\/v1\/apps$/);
		expect(requests.map((request) => request.status)).toEqual([500, 500, 0, 200]);
		expect(requests.every((request) => request.method === 'GET')).toBe(true);
	});

	/** Every request is answered 503 "Unavailable" from now on. */
	const unavailableForGood = () =>
		sandbox().injectFault({
			mode: 'status-before',
			status: 503,
			count: 100,
			body: { message: 'Unavailable' },
		});

	it('gives up after the bounded retries and says how many attempts it made', async () => {
		unavailableForGood();
		const result = await getApps();
		const attempts = MAX_FAULT_RETRIES + 1;
		expect(apiRequests(sandbox())).toHaveLength(attempts);
		expect(result.error?.message).toBe(`Unavailable (after ${attempts} attempts)`);
		expect(result.error?.description).toMatch(
			`The request was sent ${attempts} times, with backoff in between, before giving up.`,
		);
		expect(result.error?.httpCode).toBe('503');
	});

	it('a read cut once, then refused with 503: the error counts the attempts and names the cut', async () => {
		sandbox().injectFault({ mode: 'cut-after', count: 1 });
		unavailableForGood();
		const result = await getApps();
		const attempts = MAX_FAULT_RETRIES + 1;
		expect(apiRequests(sandbox())).toHaveLength(attempts);
		expect(result.error?.message).toBe(`Unavailable (after ${attempts} attempts)`);
		expect(result.error?.description).toBe(
			`The Fliplet API failed. The request was sent ${attempts} times, with backoff in between, before giving up. Try again later. The first attempt met: stream has been aborted.`,
		);
	});

	it('a read that times out is retried (credential timeout of 1 s)', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, path: '^/v1/apps$' });
		const result = await runNode({
			parameters: getManyApps,
			credentials: credentialWithTimeout(1),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory']);
		expect(apiRequests(sandbox(), /^\/v1\/apps$/)).toHaveLength(2);
	});
});

describe('a non-idempotent request (Publish) is never re-sent', () => {
	it.each([
		[
			'status-after',
			{ mode: 'status-after' as const, status: 500 },
			/^Injected fault after processing$/,
		],
		['drop-after', { mode: 'drop-after' as const }, /^Could not reach the Fliplet API: /],
		['drop-before', { mode: 'drop-before' as const }, /^Could not reach the Fliplet API: /],
	])(
		'under %s: one attempt, and the error says it may have been processed',
		async (_mode, fault, message) => {
			sandbox().injectFault({ ...fault, method: 'POST' });
			const result = await runNode({
				parameters: publishApp11,
				credentials: sandboxCredential(sandbox()),
			});
			const requests = apiRequests(sandbox(), /publish$/);
			expect(requests).toHaveLength(1);
			expect(requests[0].body).toEqual({ release: { type: 'forced', changelog: 'Hotfix' } });
			expect(result.error?.message).toMatch(message);
			expect(result.error?.message).not.toMatch(/attempts/);
			expect(result.error?.description).toMatch(/may already have been processed/);
			expect(result.error?.description).toMatch(/not sent again/);
			expect(result.error?.context?.itemIndex).toBe(0);
		},
	);

	it('status-after really processed it: the fault hides a publish that happened', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 502, method: 'POST' });
		const result = await runNode({
			parameters: publishApp11,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.httpCode).toBe('502');
		expect(publishedVersion()).toBe(2);
	});

	it('under a delay beyond the timeout: one attempt, and the error says it may have been processed', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, method: 'POST' });
		const started = Date.now();
		const result = await runNode({
			parameters: publishApp11,
			credentials: credentialWithTimeout(1),
		});
		const elapsed = Date.now() - started;
		expect(apiRequests(sandbox(), /publish$/)).toHaveLength(1);
		expect(result.error?.message).toBe('Fliplet API timeout: no complete answer within 1 s');
		expect(result.error?.description).toMatch(/may already have been processed/);
		expect(elapsed).toBeGreaterThanOrEqual(1000);
		expect(elapsed).toBeLessThan(1500);
	});

	it('a refused connection never reached the server, so even Publish is retried', async () => {
		const { flipletApi } = sandboxCredential(sandbox());
		const closedPort = 'http://127.0.0.1:9';
		const result = await runNode({
			parameters: publishApp11,
			credentials: { flipletApi: { ...flipletApi, baseUrl: closedPort } },
		});
		expect(result.error?.message).toMatch(
			new RegExp(
				`^Could not reach the Fliplet API: .*ECONNREFUSED.* \\(after ${MAX_FAULT_RETRIES + 1} attempts\\)$`,
			),
		);
		expect(result.error?.description).not.toMatch(/may already have been processed/);
	});
});

describe('one deadline per request: connect, upload and the whole answer', () => {
	// A byte every 400 ms: the apps list would take minutes to arrive, and the socket is never idle.
	const drip = (method?: string) =>
		sandbox().injectFault({ mode: 'drip-after', count: 1, dripMs: 400, method });

	it('a read whose answer trickles in is abandoned at the deadline and asked again', async () => {
		drip();
		const result = await runNode({
			parameters: getManyApps,
			credentials: credentialWithTimeout(2),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory']);
		const [trickled, again] = apiRequests(sandbox(), /^\/v1\/apps$/);
		await Promise.all([trickled.closed, again.closed]);
		// The client hung up on the trickle; the second answer came whole.
		expect(trickled.abandoned).toBe(true);
		expect(again.abandoned).toBeUndefined();
		expect(again.status).toBe(200);
	}, 30_000);

	it('a read whose answer stalls after its headers is abandoned at the deadline and asked again', async () => {
		sandbox().injectFault({ mode: 'stall-after', count: 1, path: '^/v1/apps$' });
		const result = await runNode({
			parameters: getManyApps,
			credentials: credentialWithTimeout(2),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory']);
		const [stalled, again] = apiRequests(sandbox(), /^\/v1\/apps$/);
		await Promise.all([stalled.closed, again.closed]);
		expect(stalled.abandoned).toBe(true);
		expect(again.status).toBe(200);
	}, 30_000);

	it('a publish whose answer trickles in: one attempt, given up at the deadline, may have been processed', async () => {
		drip('POST');
		const result = await runNode({
			parameters: publishApp11,
			credentials: credentialWithTimeout(2),
		});
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
		const result = await getApps();
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
		expect(result.error?.description).not.toMatch(/was retried|attempts|sent \d+ times/);
		expect(publishedVersion()).toBe(2);
	});
});

describe('an error that was not retried', () => {
	it('a read that is not retried says it was sent once, not that it was retried', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 400, body: { message: 'Bad query' } });
		const result = await getApps();
		expect(apiRequests(sandbox())).toHaveLength(1);
		expect(result.error?.message).toBe('Bad query');
		expect(result.error?.description).not.toMatch(/retried|attempts/);
	});
});
