/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, useSandbox, type TestItem } from '../harness';

// What Fliplet's own notification editors do, and what the platform does with what it is sent
// (`Fliplet/fliplet-widget-push-notifications: src/components/NotificationForm.vue`): a push
// payload is pushed whatever the status, so a draft never carries one; every push carries a
// sound, a high priority and the notification icon; a screen link is also the inbox's
// data.navigate; Keep Current re-sends orderAt as Unix seconds.
const sandbox = useSandbox();

const APP = { __rl: true, mode: 'id', value: '11' };
const notificationRequests = () => apiRequests(sandbox(), /^\/v1\/apps\/\d+\/notifications/);
const pushes = () => sandbox().state.pushes as Array<{ devices: unknown[]; payload: any }>;
const stored = (id: number) => sandbox().state.notifications.find((n: any) => n.id === id);

function run(parameters: Record<string, unknown>, input?: TestItem[], continueOnFail = false) {
	return runNode({
		parameters: { resource: 'notification', app: APP, ...parameters },
		input,
		credentials: sandboxCredential(sandbox()),
		continueOnFail,
	});
}

const DRAFT_MESSAGE = /a draft cannot carry a push notification/;
/** An Update with a push of the notification `id`. */
const updateWithPush = (id: string, parameters: Record<string, unknown> = {}) =>
	run({ operation: 'update', notificationId: id, sendPush: true, ...parameters });

describe('A draft never carries a push', () => {
	it('Create as a draft (the default Status) with a push is refused before sending: no device is reached', async () => {
		const result = await run({ operation: 'create', title: 'Review me', sendPush: true });
		expect(result.error?.message).toMatch(DRAFT_MESSAGE);
		expect(result.error?.description).toMatch(
			/Turn "Send Push Notification" off to save the draft; when it is ready, run Update with Status Published or Scheduled/,
		);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(notificationRequests()).toHaveLength(0);
		expect(pushes()).toEqual([]);
	});

	it('Create as a draft without a push is sent as before', async () => {
		const result = await run({ operation: 'create', title: 'Review me' });
		expect(result.error).toBeUndefined();
		expect(notificationRequests()[0].body).toEqual({
			isPushNotificationWidget: true,
			data: { title: 'Review me' },
			status: 'draft',
		});
		expect(pushes()).toEqual([]);
	});

	it('Create in Batch refuses a draft item with a push before creating any', async () => {
		const result = await run(
			{
				operation: 'createBatch',
				status: '={{ $json.status }}',
				orderAt: '2031-01-01T00:00:00Z',
				title: 'x',
				sendPush: true,
			},
			[{ json: { status: 'published' } }, { json: { status: 'draft' } }],
		);
		expect(result.error?.message).toMatch(/^Item 1: a draft cannot carry a push notification/);
		expect(notificationRequests()).toHaveLength(0);
		expect(pushes()).toEqual([]);
	});

	it('Update to Draft with a push is refused before sending', async () => {
		const result = await updateWithPush('501', { status: 'draft', title: 'x' });
		expect(result.error?.message).toMatch(DRAFT_MESSAGE);
		expect(notificationRequests()).toHaveLength(0);
	});

	it('Update with Keep Current on a draft with a push is refused after reading it, and nothing is changed', async () => {
		const before = { ...stored(502) };
		const result = await updateWithPush('502', { title: 'x' });
		expect(result.error?.message).toMatch(
			/a draft cannot carry a push notification \(notification 502 is a draft, and Status is Keep Current\)/,
		);
		expect(notificationRequests().map((r) => r.method)).toEqual(['POST']);
		expect(stored(502)).toEqual(before);
		expect(pushes()).toEqual([]);
	});

	it('publishing the draft with Update and a push sends it then, to every device', async () => {
		const result = await updateWithPush('502', { status: 'published' });
		expect(result.error).toBeUndefined();
		// The push text comes from the stored draft (read first), as the editor builds it.
		expect(notificationRequests().map((r) => r.method)).toEqual(['POST', 'PUT']);
		expect(pushes()).toHaveLength(1);
		expect(pushes()[0]).toMatchObject({
			notificationId: 502,
			status: 'published',
			payload: { title: 'Sales call', body: 'Team only' },
		});
	});
});

describe('Every push carries what the editors send', () => {
	it('sound default, priority high and the notification icon, with nothing chosen', async () => {
		const result = await run({
			operation: 'create',
			status: 'published',
			title: 'Hello',
			sendPush: true,
		});
		expect(result.error).toBeUndefined();
		expect(notificationRequests()[0].body.pushNotification).toEqual({
			payload: {
				title: 'Hello',
				body: '',
				sound: 'default',
				priority: 'high',
				icon: 'icon_notification',
			},
		});
		expect(pushes()[0].devices).toHaveLength(2);
	});

	it('each is overridable; an emptied Sound or Icon is left out', async () => {
		const result = await run({
			operation: 'create',
			status: 'published',
			title: 'Hello',
			sendPush: true,
			push: { sound: '', icon: '', priority: 'normal' },
		});
		expect(result.error).toBeUndefined();
		expect(notificationRequests()[0].body.pushNotification.payload).toEqual({
			title: 'Hello',
			body: '',
			priority: 'normal',
		});
		const custom = await run({
			operation: 'create',
			status: 'published',
			title: 'Hello',
			sendPush: true,
			push: { sound: 'chime.caf', icon: 'ic_alert' },
		});
		expect(custom.error).toBeUndefined();
		expect(notificationRequests()[1].body.pushNotification.payload).toMatchObject({
			sound: 'chime.caf',
			icon: 'ic_alert',
			priority: 'high',
		});
	});
});

describe('Get Many lists every status and audience by default', () => {
	it('drafts, scheduled ones and every audience, as the editor lists them', async () => {
		stored(501).status = 'scheduled';
		stored(501).orderAt = '2031-01-01T00:00:00.000Z';
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.json.map((n) => [n.id, n.status])).toEqual([
			[501, 'scheduled'],
			[502, 'draft'],
		]);
	});

	it('Status and Scopes narrow it', async () => {
		const result = await run({
			operation: 'getMany',
			returnAll: true,
			options: { status: ['draft'], scope: '[{"department": "Sales"}]' },
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((n) => n.id)).toEqual([502]);
	});
});

describe('Links and dates as the platform sends them', () => {
	it("Link to Screen also sets the notification's data.navigate, so its inbox entry opens the screen", async () => {
		const result = await updateWithPush('501', { status: 'published', push: { linkScreen: '42' } });
		expect(result.error).toBeUndefined();
		const put = notificationRequests().find((r) => r.method === 'PUT')!;
		// No other data given: the link is merged into the stored data, never replaces it.
		expect(put.body.data).toEqual({ navigate: { action: 'screen', page: 42 } });
		expect(put.body.extendData).toBe(true);
		expect(stored(501).data).toEqual({
			title: 'Welcome',
			message: 'Hello all',
			navigate: { action: 'screen', page: 42 },
		});
		// No push text given: the push takes the stored title and message, as the editor's does.
		expect(put.body.pushNotification.payload).toMatchObject({
			title: 'Welcome',
			body: 'Hello all',
			custom: { customData: { action: 'screen', page: 42 } },
		});
	});

	it('Keep Current re-sends the stored date as Unix seconds, and the date stays', async () => {
		const at = '2031-05-05T09:00:00.000Z';
		Object.assign(stored(501), { status: 'scheduled', orderAt: at });
		const result = await run({ operation: 'update', notificationId: '501', message: 'New' });
		expect(result.error).toBeUndefined();
		const put = notificationRequests().find((r) => r.method === 'PUT')!;
		expect(put.body.orderAt).toBe(1935738000);
		expect(stored(501)).toMatchObject({ status: 'scheduled', orderAt: at });
	});
});

// The push editor adds `isPushNotificationWidget: true` to what it creates and updates (commits
// a56daf0 and 8aab72f of fliplet-widget-push-notifications), not to the lists it reads.
describe("The push editor's flag", () => {
	it('goes on Create, Create in Batch and Update, and not on the lookup before an update', async () => {
		const created = await run({ operation: 'create', status: 'published', title: 'One' });
		const batch = await run({ operation: 'createBatch', status: 'published', title: 'Two' });
		const updated = await run({ operation: 'update', notificationId: '501', message: 'Three' });
		for (const result of [created, batch, updated]) expect(result.error).toBeUndefined();

		const sent = notificationRequests().map((r) => [r.method, r.path, r.body]);
		expect(sent).toEqual([
			[
				'PUT',
				'/v1/apps/11/notifications',
				expect.objectContaining({ isPushNotificationWidget: true }),
			],
			[
				'POST',
				'/v1/apps/11/notifications/batch',
				{ notifications: [expect.objectContaining({ isPushNotificationWidget: true })] },
			],
			[
				'POST',
				'/v1/apps/11/notifications',
				expect.not.objectContaining({ isPushNotificationWidget: expect.anything() }),
			],
			[
				'PUT',
				'/v1/apps/11/notifications/501',
				expect.objectContaining({ isPushNotificationWidget: true }),
			],
		]);
		// It is the editor's wire flag, not part of the notification the node outputs.
		expect(created.json[0]).not.toHaveProperty('isPushNotificationWidget');
		expect(stored(501)).not.toHaveProperty('isPushNotificationWidget');
	});
});
