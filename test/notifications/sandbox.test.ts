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
			orderAt: Date.now() - 1000,
		});
		expect(past.status).toBe(400);
		const updated = await call('PUT', `/v1/apps/11/notifications/${created.body.notification.id}`, {
			status: 'published',
		});
		expect(updated.body.notification.status).toBe('published');
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
