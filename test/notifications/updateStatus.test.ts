import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();

const APP = { __rl: true, mode: 'id', value: '11' };
const notificationRequests = () => apiRequests(sandbox(), /^\/v1\/apps\/\d+\/notifications/);
const stored = (id: number) => sandbox().state.notifications.find((n: IDataObject) => n.id === id);

function update(parameters: Record<string, unknown>, continueOnFail = false) {
	return runNode({
		parameters: { resource: 'notification', operation: 'update', app: APP, ...parameters },
		credentials: sandboxCredential(sandbox()),
		continueOnFail,
	});
}

describe('Notification → Update: Status "Keep Current" (the default)', () => {
	it('keeps a draft a draft and its send date: reads the record, then re-sends both', async () => {
		const before = stored(502);
		expect(before.status).toBe('draft');
		const result = await update({ notificationId: '502', title: 'Fixed typo' });
		expect(result.error).toBeUndefined();
		const [read, put] = notificationRequests();
		expect([read.method, read.path]).toEqual(['POST', '/v1/apps/11/notifications']);
		expect(read.body).toEqual({
			where: { id: 502 },
			limit: 1,
			status: ['draft', 'published', 'scheduled'],
			includeAllScopes: true,
		});
		expect([put.method, put.path]).toEqual(['PUT', '/v1/apps/11/notifications/502']);
		// orderAt as Unix seconds, the only form the platform's code sends (the answer's ISO date).
		expect(put.body).toEqual({
			isPushNotificationWidget: true,
			status: 'draft',
			orderAt: Date.parse(before.orderAt) / 1000,
			data: { title: 'Fixed typo' },
			extendData: true,
		});
		expect(notificationRequests()).toHaveLength(2);
		expect(stored(502)).toMatchObject({ status: 'draft', orderAt: '2026-01-10T09:00:00.000Z' });
		expect(result.json[0]).toEqual(
			expect.objectContaining({
				id: 502,
				status: 'draft',
				data: { title: 'Fixed typo', message: 'Team only' },
			}),
		);
	});

	it('keeps a scheduled notification scheduled at its date', async () => {
		const at = '2031-05-05T09:00:00.000Z';
		Object.assign(stored(501), { status: 'scheduled', orderAt: at });
		const result = await update({ notificationId: '501', message: 'New text' });
		expect(result.error).toBeUndefined();
		const put = notificationRequests().find((request) => request.method === 'PUT')!;
		expect(put.body).toEqual({
			isPushNotificationWidget: true,
			status: 'scheduled',
			orderAt: Date.parse(at) / 1000,
			data: { message: 'New text' },
			extendData: true,
		});
		expect(stored(501)).toMatchObject({ status: 'scheduled', orderAt: at });
		expect(result.json[0]).toEqual(
			expect.objectContaining({ id: 501, status: 'scheduled', orderAt: at }),
		);
	});

	it('an explicit status is sent as chosen, without reading the record first', async () => {
		const result = await update({ notificationId: '502', status: 'published', title: 'Live' });
		expect(result.error).toBeUndefined();
		expect(notificationRequests().map((r) => r.method)).toEqual(['PUT']);
		expect(notificationRequests()[0].body).toEqual({
			isPushNotificationWidget: true,
			status: 'published',
			data: { title: 'Live' },
			extendData: true,
		});
		expect(stored(502).status).toBe('published');
		expect(result.json[0]).toMatchObject({ id: 502, status: 'published' });
	});

	it('refuses to update a notification it cannot find, and sends no update', async () => {
		const result = await update({ notificationId: '999', title: 'Nobody' }, true);
		expect(result.error).toBeUndefined();
		expect(notificationRequests().map((r) => r.method)).toEqual(['POST']);
		expect(result.items).toEqual([
			expect.objectContaining({
				json: {
					error: 'Notification 999 was not found',
					description: expect.stringMatching(/Check the Notification ID/),
				},
				pairedItem: { item: 0 },
			}),
		]);
	});
});

describe('Notification → Update: retries', () => {
	it('with a push notification it is sent exactly once, even when the connection drops', async () => {
		sandbox().injectFault({ mode: 'drop-after', method: 'PUT', path: '/notifications/502$' });
		const result = await update({
			notificationId: '502',
			status: 'published',
			title: 'Ping',
			sendPush: true,
		});
		const puts = notificationRequests().filter((request) => request.method === 'PUT');
		expect(puts).toHaveLength(1);
		expect(puts[0].body.pushNotification).toEqual({
			payload: {
				title: 'Ping',
				body: '',
				sound: 'default',
				priority: 'high',
				icon: 'icon_notification',
			},
		});
		expect(result.error?.message).toMatch(/^Could not reach the Fliplet API/);
		expect(result.error?.description).toMatch(
			/may already have been processed, so it was not sent again automatically/,
		);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(stored(502).data.title).toBe('Ping');
		expect(result.json).toEqual([]);
	});
});
