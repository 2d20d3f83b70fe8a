/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	MAX_RATE_LIMIT_WAITS,
	MAX_SINGLE_WAIT_MS,
	rateLimitWaitMs,
} from '../../nodes/Fliplet/transport/retryPolicy';
import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const { RateLimiter, DEFAULT_LIMITS, DEFAULT_DAILY_CAPS } = require('../../sandbox/rateLimit');

const sandbox = useSandbox();

const NOW = Date.parse('2026-01-05T09:00:00.000Z');
const JITTER_MS = 100;

describe('rateLimitWaitMs', () => {
	it("waits until the body's nextValidRequestDate", () => {
		const body = { message: 'Too many', nextValidRequestDate: new Date(NOW + 1500).toISOString() };
		const wait = rateLimitWaitMs(body, {}, 0, NOW);
		expect(wait).toBeGreaterThanOrEqual(1500);
		expect(wait).toBeLessThanOrEqual(1500 + JITTER_MS);
	});

	it('reads Retry-After in seconds (any header case)', () => {
		const wait = rateLimitWaitMs({}, { 'Retry-After': '2' }, 0, NOW);
		expect(wait).toBeGreaterThanOrEqual(2000);
		expect(wait).toBeLessThanOrEqual(2000 + JITTER_MS);
	});

	it('reads Retry-After as an HTTP date', () => {
		const wait = rateLimitWaitMs(
			undefined,
			{ 'retry-after': 'Mon, 05 Jan 2026 09:00:03 GMT' },
			0,
			NOW,
		);
		expect(wait).toBeGreaterThanOrEqual(3000);
		expect(wait).toBeLessThanOrEqual(3000 + JITTER_MS);
	});

	it('prefers the body date over Retry-After', () => {
		const body = { nextValidRequestDate: new Date(NOW + 700).toISOString() };
		const wait = rateLimitWaitMs(body, { 'retry-after': '30' }, 0, NOW);
		expect(wait).toBeLessThanOrEqual(700 + JITTER_MS);
	});

	it('falls back to Retry-After when the body date is not a date', () => {
		const wait = rateLimitWaitMs({ nextValidRequestDate: 'soon' }, { 'retry-after': '1' }, 0, NOW);
		expect(wait).toBeGreaterThanOrEqual(1000);
	});

	it('backs off exponentially when the API says nothing', () => {
		const first = rateLimitWaitMs({}, {}, 0, NOW);
		const third = rateLimitWaitMs({}, {}, 2, NOW);
		expect(first).toBeGreaterThanOrEqual(150);
		expect(first).toBeLessThanOrEqual(300 + JITTER_MS);
		expect(third).toBeGreaterThanOrEqual(600);
	});

	it('is bounded: never longer than the cap, never shorter than 50 ms', () => {
		expect(rateLimitWaitMs({}, { 'retry-after': '3600' }, 0, NOW)).toBe(MAX_SINGLE_WAIT_MS);
		const past = { nextValidRequestDate: new Date(NOW - 10_000).toISOString() };
		expect(rateLimitWaitMs(past, {}, 0, NOW)).toBeGreaterThanOrEqual(50);
	});
});

describe('429 handling through the node', () => {
	const getManyApps = {
		parameters: { resource: 'app', operation: 'getMany', returnAll: true },
	};

	/** Every request (to paths matching `path`) is refused with 429, each time told to retry now. */
	const refuseEveryRequest = (path?: string) =>
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			count: 100,
			body: {
				message: 'Too many requests, please slow down.',
				nextValidRequestDate: new Date().toISOString(),
			},
			path,
		});

	it('waits as nextValidRequestDate says, then succeeds', async () => {
		const injectedAt = Date.now();
		const nextValidRequestDate = new Date(injectedAt + 300).toISOString();
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			body: { message: 'Too many requests, please slow down.', nextValidRequestDate },
			path: '^/v1/apps$',
		});
		const result = await runNode({
			...getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		const [limited, retried] = apiRequests(sandbox(), /^\/v1\/apps$/);
		expect([limited.status, retried.status]).toEqual([429, 200]);
		const waited = retried.at - limited.at;
		expect(retried.at).toBeGreaterThanOrEqual(Date.parse(nextValidRequestDate));
		expect(waited).toBeLessThan(300 + 1000);
	});

	it('waits as Retry-After says when the body has no date', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			body: { message: 'Slow down' },
			headers: { 'Retry-After': '1' },
		});
		const result = await runNode({
			...getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		const [limited, retried] = apiRequests(sandbox());
		expect(retried.at - limited.at).toBeGreaterThanOrEqual(1000);
	});

	it('re-sends a non-idempotent request after a 429 (it was refused, not processed)', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			body: {
				message: 'Slow down',
				nextValidRequestDate: new Date(Date.now() + 100).toISOString(),
			},
			method: 'POST',
		});
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'id', value: '11' },
				releaseType: 'silent',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /publish$/).map((request) => request.status)).toEqual([429, 201]);
		expect(result.json).toEqual([expect.objectContaining({ version: 2 })]);
	});

	it('gives up after the bounded number of waits and says how many attempts it made', async () => {
		refuseEveryRequest();
		const result = await runNode({
			...getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		const attempts = MAX_RATE_LIMIT_WAITS + 1;
		expect(apiRequests(sandbox())).toHaveLength(attempts);
		expect(result.error?.message).toBe(
			`Rate limit reached: Too many requests, please slow down. (after ${attempts} attempts)`,
		);
		expect(result.error?.description).toMatch(/waited as the API asked/);
		expect(result.error?.httpCode).toBe('429');
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	it('still gives up on a data-source read refused every time, with nothing else served', async () => {
		refuseEveryRequest('^/v1/data-sources/[0-9]+/data');
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox()),
		});
		const attempts = MAX_RATE_LIMIT_WAITS + 1;
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data/)).toHaveLength(attempts);
		expect(result.error?.message).toMatch(`(after ${attempts} attempts)`);
		expect(result.error?.httpCode).toBe('429');
	});
});

describe('sandbox rate limiter (the public per-user figures)', () => {
	it('has the documented limits per area (AI: Free plan, and paid plans)', () => {
		expect(DEFAULT_LIMITS).toEqual({
			dataSources: { limit: 200, windowMs: 10_000 },
			communicate: { limit: 20, windowMs: 30_000 },
			logs: { limit: 30, windowMs: 10_000 },
			ai: { limit: 10, windowMs: 60_000 },
			aiPaid: { limit: 100, windowMs: 60_000 },
		});
	});

	it('refuses the request over the limit until the window slides, per token and area', () => {
		const limiter = new RateLimiter(true, { ai: { limit: 2, windowMs: 1000 } });
		expect(limiter.check('a', 'ai', 0)).toBeNull();
		expect(limiter.check('a', 'ai', 10)).toBeNull();
		expect(limiter.check('a', 'ai', 20)).toEqual(new Date(1000));
		expect(limiter.check('b', 'ai', 20)).toBeNull();
		expect(limiter.check('a', 'logs', 20)).toBeNull();
		expect(limiter.check('a', 'ai', 1001)).toBeNull();
	});

	it('lets everything through when switched off or for areas without a limit', () => {
		const limiter = new RateLimiter(false, { ai: { limit: 1, windowMs: 1000 } });
		expect(limiter.check('a', 'ai', 0)).toBeNull();
		expect(limiter.check('a', 'ai', 1)).toBeNull();
		limiter.enabled = true;
		expect(limiter.check('a', undefined, 2)).toBeNull();
		expect(limiter.check('a', 'apps', 2)).toBeNull();
	});
});

describe("sandbox AI limits: the organization's cap a day, and whose limit a minute", () => {
	const DAY = 24 * 3600_000;
	const complete = (app: number, token = TOKENS.org) =>
		callSandbox(
			sandbox(),
			'POST',
			`/v1/apps/${app}/ai/completions`,
			{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
			token,
		);
	const statuses = async (apps: number[], token?: string) => {
		const answers: number[] = [];
		for (const app of apps) answers.push((await complete(app, token)).status);
		return answers;
	};

	it("has the AI docs' caps a day: 100 on the Free plan, 10,000 on paid plans", () => {
		expect(DEFAULT_DAILY_CAPS).toEqual({ ai: 100, aiPaid: 10_000 });
	});

	it('counts a day per organization and area, and names the next UTC midnight once it is reached', () => {
		const limiter = new RateLimiter(true, {}, { ai: 2 });
		const now = Date.parse('2026-01-05T22:30:00.000Z');
		expect(limiter.dayCapReached('organization:1', 'ai', now)).toBeNull();
		limiter.countDay('organization:1', 'ai', now);
		limiter.countDay('organization:1', 'ai', now);
		expect(limiter.dayCapReached('organization:1', 'ai', now)).toEqual(
			new Date('2026-01-06T00:00:00.000Z'),
		);
		expect(limiter.dayCapReached('organization:2', 'ai', now)).toBeNull();
		expect(limiter.dayCapReached('organization:1', 'aiPaid', now)).toBeNull();
		expect(limiter.dayCapReached('organization:1', 'ai', now + DAY)).toBeNull();
		expect(limiter.dayCapReached('organization:1', 'dataSources', now)).toBeNull();
		limiter.enabled = false;
		expect(limiter.dayCapReached('organization:1', 'ai', now)).toBeNull();
	});

	it("refuses the organization's AI requests past its cap with a 429 naming the reset, whichever app", async () => {
		sandbox().rateLimiter.enabled = true;
		const caps = sandbox().rateLimiter.dailyCaps;
		const documented = { ...caps };
		caps.ai = 3;
		try {
			expect(await statuses([11, 21, 11])).toEqual([200, 200, 200]);
			const refused = await complete(21);
			expect(refused.status).toBe(429);
			const reset = new Date(Math.floor(Date.now() / DAY + 1) * DAY).toISOString();
			expect(refused.body).toMatchObject({ nextValidRequestDate: reset });
			// Another organization's token and app have their own.
			expect(await statuses([31], TOKENS.otherOrg)).toEqual([200]);
			expect(sandbox().state.ai.calls).toHaveLength(4);
		} finally {
			Object.assign(caps, documented);
			sandbox().rateLimiter.enabled = false;
		}
	});

	it.each([
		['app', [200, 200, 200, 200]],
		['organization', [200, 200, 429, 429]],
	] as const)(
		'counts the per-minute limit per %s, as the switch says (two apps of one organization)',
		async (aiScope, expected) => {
			sandbox().rateLimiter.enabled = true;
			const limits = sandbox().rateLimiter.limits;
			const documented = limits.ai;
			limits.ai = { limit: 2, windowMs: 60_000 };
			try {
				const switched = await callSandbox(sandbox(), 'POST', '/__sandbox/rate-limits', {
					aiScope,
				});
				expect(switched.body).toMatchObject({ aiScope });
				expect(await statuses([11, 21, 11, 21])).toEqual(expected);
			} finally {
				limits.ai = documented;
				sandbox().rateLimiter.enabled = false;
			}
		},
	);

	it('takes only the two readings, and a reset brings back the per-app one', async () => {
		const refused = await callSandbox(sandbox(), 'POST', '/__sandbox/rate-limits', {
			aiScope: 'user',
		});
		expect(refused.status).toBe(400);
		await callSandbox(sandbox(), 'POST', '/__sandbox/rate-limits', { aiScope: 'organization' });
		sandbox().reset();
		const now = await callSandbox(sandbox(), 'POST', '/__sandbox/rate-limits', {});
		expect(now.body).toMatchObject({ aiScope: 'app' });
	});
});
