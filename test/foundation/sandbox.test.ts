import { callSandbox, createSandbox, RawJson, TOKENS, useSandbox, type Sandbox } from '../harness';

const sandbox = useSandbox();

const UNAUTHORISED = {
	error: 'not authorised',
	message: "The auth_token provided doesn't belong to any user.",
};

async function call(
	path: string,
	init: { method?: string; token?: string; body?: unknown; raw?: string; on?: Sandbox } = {},
) {
	return await callSandbox(
		init.on ?? sandbox(),
		init.method ?? 'GET',
		path,
		init.raw === undefined ? init.body : new RawJson(init.raw),
		init.token ?? null,
	);
}

describe('sandbox authentication', () => {
	it.each([
		['no token', undefined],
		['an unknown token', 'eu--nobody'],
		['a token of another region', TOKENS.us],
	])('answers 401 with the platform envelope for %s', async (_label, token) => {
		expect(await call('/v1/apps', { token })).toEqual(
			expect.objectContaining({ status: 401, body: UNAUTHORISED }),
		);
	});

	it('GET /v1/user describes the token user of each kind', async () => {
		const studio = await call('/v1/user', { token: TOKENS.studio });
		expect(studio.body.user).toEqual(
			expect.objectContaining({ id: 1, fullName: 'Sandy Box', email: 'sandy@example.com' }),
		);
		expect(studio.body.host).toBe('https://api.fliplet.com/');
		const app = await call('/v1/user', { token: TOKENS.app });
		expect(app.status).toBe(200);
		expect(app.body.user).toEqual(
			expect.objectContaining({ id: 102, fullName: 'Staff Directory API' }),
		);
	});

	it('an app token reaches its published app only; an organization token both ids of its apps', async () => {
		expect((await call('/v1/apps/11/analytics/sessions', { token: TOKENS.app })).status).toBe(200);
		expect((await call('/v1/apps/10/analytics/sessions', { token: TOKENS.app })).status).toBe(404);
		expect((await call('/v1/apps/21/analytics/sessions', { token: TOKENS.app })).status).toBe(404);
		expect((await call('/v1/apps/10/analytics/sessions', { token: TOKENS.org })).status).toBe(200);
		expect((await call('/v1/apps/31/analytics/sessions', { token: TOKENS.org })).status).toBe(404);
	});

	it("a sandbox of another region accepts that region's tokens only", async () => {
		const us = createSandbox({ region: 'us' });
		await us.start();
		try {
			expect((await call('/v1/apps', { token: TOKENS.us, on: us })).status).toBe(200);
			expect((await call('/v1/apps', { token: TOKENS.org, on: us })).status).toBe(401);
		} finally {
			await us.stop();
		}
	});
});

describe('sandbox error envelope', () => {
	it('an unknown route is a JSON 404 with a message', async () => {
		const response = await call('/v1/nowhere', { token: TOKENS.org });
		expect(response).toEqual(
			expect.objectContaining({ status: 404, body: { message: 'Cannot GET /v1/nowhere' } }),
		);
	});

	it('a body that is not JSON is a 400 with a message', async () => {
		const response = await call('/v1/apps/11/publish', {
			method: 'POST',
			token: TOKENS.app,
			raw: '{oops',
		});
		expect(response.status).toBe(400);
		expect(response.body).toEqual({ message: 'The request body is not valid JSON' });
	});

	it('publish without release is a 400 with {error}; with a release, 201 and the new version as text', async () => {
		const missing = await call('/v1/apps/11/publish', {
			method: 'POST',
			token: TOKENS.app,
			body: {},
		});
		expect(missing).toEqual(
			expect.objectContaining({
				status: 400,
				body: { error: 'The "release" attribute is required for publishing.' },
			}),
		);
		const done = await call('/v1/apps/11/publish', {
			method: 'POST',
			token: TOKENS.app,
			body: { release: { type: 'visible', changelog: 'x' } },
		});
		expect(done).toEqual(
			expect.objectContaining({
				status: 201,
				body: { app: expect.objectContaining({ id: 10, version: '2' }) },
			}),
		);
	});
});

describe('sandbox control endpoints', () => {
	it('injects a fault with a body and headers, narrowed by method and path, for count requests', async () => {
		const injected = await call('/__sandbox/faults', {
			method: 'POST',
			body: {
				mode: 'status-before',
				status: 429,
				count: 2,
				method: 'GET',
				path: '^/v1/apps$',
				body: { message: 'Slow down', nextValidRequestDate: '2026-01-05T09:00:01.000Z' },
				headers: { 'Retry-After': '1' },
			},
		});
		expect(injected.body.faults).toHaveLength(1);
		expect((await call('/v1/user', { token: TOKENS.org })).status).toBe(200);
		for (let n = 0; n < 2; n++) {
			const limited = await call('/v1/apps', { token: TOKENS.org });
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual({
				message: 'Slow down',
				nextValidRequestDate: '2026-01-05T09:00:01.000Z',
			});
			expect(limited.headers.get('retry-after')).toBe('1');
		}
		expect((await call('/v1/apps', { token: TOKENS.org })).status).toBe(200);
	});

	it('status-after keeps the effect of the request', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 500 });
		const response = await call('/v1/apps/11/publish', {
			method: 'POST',
			token: TOKENS.app,
			body: { release: { type: 'silent' } },
		});
		expect(response).toEqual(
			expect.objectContaining({
				status: 500,
				body: { message: 'Injected fault after processing' },
			}),
		);
		expect(sandbox().state.apps[0].version).toBe(2);
	});

	it('lists received requests, switches rate limits and resets', async () => {
		await call('/v1/apps', { token: TOKENS.org });
		const listed = await call('/__sandbox/requests');
		expect(listed.body.requests.map((request: { path: string }) => request.path)).toEqual([
			'/v1/apps',
		]);
		const limits = await call('/__sandbox/rate-limits', {
			method: 'POST',
			body: { enabled: false, limits: { ai: { limit: 1, windowMs: 500 } } },
		});
		expect(limits.body).toEqual(expect.objectContaining({ enabled: false }));
		expect(limits.body.limits.ai).toEqual({ limit: 1, windowMs: 500 });
		expect(sandbox().rateLimiter.enabled).toBe(false);
		await call('/__sandbox/reset', { method: 'POST' });
		expect(sandbox().requests).toHaveLength(0);
	});
});
