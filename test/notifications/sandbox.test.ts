/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { callSandbox, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const call = (method: string, path: string, body?: unknown, token?: string) =>
	callSandbox(sandbox(), method, path, body, token);

describe('Sandbox notification endpoints', () => {
	it('refuses where or scope on GET', async () => {
		expect((await call('GET', '/v1/apps/11/notifications?where=x')).status).toBe(400);
	});

	it('creates drafts by default, refuses a scheduled date in the past, and publishes a draft on update', async () => {
		const created = await call('PUT', '/v1/apps/11/notifications', { data: { title: 'T' } });
		expect(created.body.notification.status).toBe('draft');
		const past = await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'T' },
			status: 'scheduled',
			orderAt: Math.floor(Date.now() / 1000) - 10,
		});
		expect(past.status).toBe(400);
		const updated = await call('PUT', `/v1/apps/11/notifications/${created.body.notification.id}`, {
			status: 'published',
		});
		expect(updated.body.notification.status).toBe('published');
	});

	it('reads a numeric orderAt as Unix seconds and answers it as an ISO date', async () => {
		const seconds = Date.parse('2030-01-31T09:00:00.000Z') / 1000;
		const created = await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'T' },
			status: 'scheduled',
			orderAt: seconds,
		});
		expect(created.status).toBe(200);
		expect(created.body.notification.orderAt).toBe('2030-01-31T09:00:00.000Z');
	});

	it("lists published notifications of the caller's scope unless status, includeDrafts or includeAllScopes widen it", async () => {
		const ids = async (options: Record<string, unknown>) =>
			(await call('POST', '/v1/apps/11/notifications', options)).body.notifications.map(
				(n: any) => n.id,
			);
		expect(await ids({})).toEqual([501]);
		expect(await ids({ includeDrafts: true })).toEqual([501]);
		expect(await ids({ includeDrafts: true, includeAllScopes: true })).toEqual([502, 501]);
		expect(await ids({ status: ['draft'], includeAllScopes: true })).toEqual([502]);
		expect(await ids({ status: 'draft,published', scope: [{ department: 'Sales' }] })).toEqual([
			502, 501,
		]);
		const get = await call('GET', '/v1/apps/11/notifications?status=draft&includeAllScopes=true');
		expect(get.body.notifications.map((n: any) => n.id)).toEqual([502]);
		expect((await call('POST', '/v1/apps/11/notifications', { status: ['sent'] })).status).toBe(
			400,
		);
	});

	it('a Studio user also sees the notifications whose scope matches their user record', async () => {
		await call(
			'PUT',
			'/v1/apps/11/notifications',
			{ data: { title: 'Mine' }, status: 'published', scope: { email: 'sandy@example.com' } },
			TOKENS.studio,
		);
		const mine = await call('POST', '/v1/apps/11/notifications', {}, TOKENS.studio);
		expect(mine.body.notifications.map((n: any) => n.data.title)).toEqual(['Mine', 'Welcome']);
		const app = await call('POST', '/v1/apps/11/notifications', {});
		expect(app.body.notifications.map((n: any) => n.data.title)).toEqual(['Welcome']);
	});

	it('refuses an empty scope, a push-only notification without a push and an unknown type or priority', async () => {
		const create = (body: Record<string, unknown>) =>
			call('PUT', '/v1/apps/11/notifications', { data: { title: 'T' }, ...body });
		expect((await create({ scope: [] })).body.message).toMatch(/scope must not be empty/);
		expect((await create({ type: 'push' })).body.message).toMatch(/needs pushNotification/);
		expect((await create({ type: 'sms' })).status).toBe(400);
		const push = { payload: { title: 'T', body: 'B', priority: 'urgent' } };
		expect((await create({ pushNotification: push })).status).toBe(400);
		expect((await call('PUT', '/v1/apps/11/notifications/501', { scope: [] })).status).toBe(400);
		const ok = await create({
			type: 'push',
			pushNotification: { payload: { title: 'T', body: 'B', priority: 'high' } },
		});
		expect(ok.body.notification.type).toBe('push');
	});

	it('resets an update without status to draft, as the API documents', async () => {
		const updated = await call('PUT', '/v1/apps/11/notifications/501', {
			data: { title: 'x' },
			extendData: true,
		});
		expect(updated.body.notification).toEqual(
			expect.objectContaining({ status: 'draft', data: { title: 'x', message: 'Hello all' } }),
		);
	});

	it('keeps one read receipt per recipient and notification', async () => {
		await call('POST', '/v1/apps/11/notifications/mark-as-read', {
			recipientId: 'r1',
			entries: [501],
		});
		await call('POST', '/v1/apps/11/notifications/mark-as-read', {
			recipientId: 'r1',
			entries: [501, 502],
		});
		await call('POST', '/v1/apps/11/notifications/mark-as-read', {
			recipientId: 'r2',
			entries: [501],
		});
		expect(
			sandbox().state.readReceipts.map((r: any) => `${r.recipientId}:${r.notificationId}`),
		).toEqual(['r1:501', 'r1:502', 'r2:501']);
	});

	it('refuses push subscriptions to app and organization tokens, and serves Studio user tokens', async () => {
		expect((await call('GET', '/v1/apps/11/subscriptions', undefined, TOKENS.app)).status).toBe(
			403,
		);
		expect((await call('GET', '/v1/apps/11/subscriptions', undefined, TOKENS.org)).status).toBe(
			403,
		);
		const studio = await call('GET', '/v1/apps/11/subscriptions', undefined, TOKENS.studio);
		expect(studio.body.subscriptions.map((s: any) => s.id)).toEqual([71, 72]);
	});

	it('answers 404 for an app the token cannot reach', async () => {
		expect((await call('GET', '/v1/apps/21/notifications')).status).toBe(404);
	});
});
