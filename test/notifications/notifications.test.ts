/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type TestItem,
} from '../harness';

const sandbox = useSandbox();

const APP = { __rl: true, mode: 'id', value: '11' };
const notificationRequests = () =>
	apiRequests(sandbox(), /^\/v1\/apps\/\d+\/(notifications|subscriptions)/);

function run(
	parameters: Record<string, unknown>,
	options: { input?: TestItem[]; token?: string; continueOnFail?: boolean } = {},
) {
	return runNode({
		parameters: { resource: 'notification', app: APP, ...parameters },
		input: options.input,
		credentials: sandboxCredential(sandbox(), options.token ?? TOKENS.app),
		continueOnFail: options.continueOnFail,
	});
}

describe('Notification → Get Many', () => {
	it("lists every status and every audience by default, with POST, as Fliplet's editor does", async () => {
		const result = await run({
			operation: 'getMany',
			limit: 5,
			options: { order: 'orderAt', direction: 'ASC' },
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/apps/11/notifications');
		expect(request.body).toEqual({
			limit: 5,
			order: 'orderAt',
			direction: 'ASC',
			includeAllScopes: true,
			status: ['draft', 'published', 'scheduled'],
		});
		// 502 is a draft for the Sales department: listed too.
		expect(result.json.map((n) => [n.id, n.status])).toEqual([
			[501, 'published'],
			[502, 'draft'],
		]);
		expect(result.json[0]).toEqual(
			expect.objectContaining({ data: { title: 'Welcome', message: 'Hello all' } }),
		);
	});

	it('Include Drafts off and All Scopes off narrow the list', async () => {
		const result = await run({
			operation: 'getMany',
			returnAll: true,
			options: { includeDrafts: false, includeAllScopes: false },
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.body).toEqual({ limit: 100000, status: ['published', 'scheduled'] });
		expect(result.json.map((n) => n.id)).toEqual([501]);
	});

	it('refuses Status Draft with Include Drafts off before sending', async () => {
		const result = await run({
			operation: 'getMany',
			options: { status: ['draft'], includeDrafts: false },
		});
		expect(result.error?.message).toMatch(/no status left to list/);
		expect(notificationRequests()).toHaveLength(0);
	});

	it('Status lists the chosen statuses (in a POST body), e.g. scheduled ones only', async () => {
		const at = '2031-03-03T09:00:00.000Z';
		sandbox().state.notifications.push({
			...sandbox().state.notifications[0],
			id: 601,
			status: 'scheduled',
			orderAt: at,
		});
		const result = await run({
			operation: 'getMany',
			returnAll: true,
			options: { status: ['scheduled'], includeAllScopes: true },
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.method).toBe('POST');
		expect(request.body).toEqual({
			limit: 100000,
			includeAllScopes: true,
			status: ['scheduled'],
		});
		expect(result.json.map((n) => [n.id, n.status, n.orderAt])).toEqual([[601, 'scheduled', at]]);
	});

	it('Status with every value lists drafts, published and scheduled notifications', async () => {
		const result = await run({
			operation: 'getMany',
			returnAll: true,
			options: { status: ['draft', 'published', 'scheduled'], includeAllScopes: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((n) => n.id)).toEqual([502, 501]);
	});

	it('uses POST with where and scope in the body, and includes deleted ones when asked', async () => {
		const result = await run({
			operation: 'getMany',
			returnAll: true,
			options: {
				includeDeleted: true,
				where: '{"status": "published"}',
				scope: '[{"department": "Sales"}]',
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.method).toBe('POST');
		// Scopes narrow the audience: All Scopes is not sent with them.
		expect(request.body).toEqual({
			limit: 100000,
			includeDeleted: true,
			where: { status: 'published' },
			scope: [{ department: 'Sales' }],
			status: ['draft', 'published', 'scheduled'],
		});
		expect(result.json.map((n) => n.id)).toEqual([501, 503]);
	});

	it('Count Only returns one item with the count', async () => {
		const result = await run({
			operation: 'getMany',
			countOnly: true,
			options: { includeDeleted: true },
		});
		const [request] = notificationRequests();
		expect(request.body).toEqual({
			count: true,
			includeDeleted: true,
			includeAllScopes: true,
			status: ['draft', 'published', 'scheduled'],
		});
		// 501, the draft 502 and the deleted 503.
		expect(result.json).toEqual([{ count: 3 }]);
	});

	it('refuses a Where that is not a JSON object before sending', async () => {
		const result = await run({ operation: 'getMany', options: { where: '{"status": ' } });
		expect(result.error?.message).toBe('Item 0: "Where (JSON)" is not valid JSON');
		expect(notificationRequests()).toHaveLength(0);
	});

	it.each([['["Sales"]'], ['"Sales"'], ['[{"Department": "Sales"}, 3]']])(
		'refuses Scopes %s that are not scope objects before sending',
		async (scope) => {
			const result = await run({ operation: 'getMany', options: { scope } });
			expect(result.error?.message).toBe(
				'Item 0: "Scopes (JSON)" must be a scope object or an array of them',
			);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(notificationRequests()).toHaveLength(0);
		},
	);
});

describe('Notification → Create', () => {
	it('creates a published notification for matching users with a push, returning the notification', async () => {
		const result = await run(
			{
				operation: 'create',
				status: 'published',
				title: 'Sales meeting',
				message: '={{ "Room " + $json.room }}',
				additionalData: '{"link": "https://example.com/agenda"}',
				scopeMode: 'match',
				scopeConditions: {
					condition: [
						{ column: 'Department', values: 'Sales, Support' },
						{ column: 'Office', values: 'London' },
					],
				},
				sendPush: true,
				push: {
					badge: 3,
					sound: 'default',
					subscriptions: '71, 72',
					delayUntil: '2030-01-01T10:00:00.000Z',
				},
			},
			{ input: [{ json: { room: '4B' } }] },
		);
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.method).toBe('PUT');
		expect(request.path).toBe('/v1/apps/11/notifications');
		expect(request.body).toEqual({
			isPushNotificationWidget: true,
			data: { link: 'https://example.com/agenda', title: 'Sales meeting', message: 'Room 4B' },
			status: 'published',
			scope: [{ Department: { $in: ['Sales', 'Support'] }, Office: 'London' }],
			pushNotification: {
				payload: {
					title: 'Sales meeting',
					body: 'Room 4B',
					badge: 3,
					sound: 'default',
					priority: 'high',
					icon: 'icon_notification',
				},
				subscriptions: [71, 72],
				delayUntilTimestamp: Date.parse('2030-01-01T10:00:00.000Z') / 1000,
			},
		});
		const stored = sandbox().state.notifications.at(-1);
		expect(result.json).toEqual([
			expect.objectContaining({ id: stored.id, status: 'published', appId: 10 }),
		]);
		expect(result.json[0].scope).toEqual(request.body.scope);
	});

	it('sends a push-only notification with a deep link to a screen, also as data.navigate', async () => {
		const result = await run({
			operation: 'create',
			status: 'published',
			title: 'Sunny',
			message: 'Go outside',
			sendPush: true,
			push: { pushOnly: true, linkScreen: '123', linkQuery: 'weather=sunny', priority: 'normal' },
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		const link = { action: 'screen', page: 123, query: '?weather=sunny' };
		expect(request.body).toEqual({
			isPushNotificationWidget: true,
			data: { title: 'Sunny', message: 'Go outside', navigate: link },
			status: 'published',
			type: 'push',
			pushNotification: {
				payload: {
					title: 'Sunny',
					body: 'Go outside',
					sound: 'default',
					priority: 'normal',
					icon: 'icon_notification',
					custom: { customData: link },
				},
			},
		});
		expect(result.json[0]).toEqual(expect.objectContaining({ type: 'push', status: 'published' }));
		expect(sandbox().state.notifications.at(-1).pushNotification.payload.custom).toEqual({
			customData: { action: 'screen', page: 123, query: '?weather=sunny' },
		});
	});

	it.each([
		[{ linkScreen: 'Home' }, /"Link to Screen" must be a screen ID/],
		[{ linkQuery: '?a=1' }, /"Link Query" is set but "Link to Screen" is empty/],
	])('refuses a deep link %j before sending', async (push, message) => {
		const result = await run({
			operation: 'create',
			status: 'published',
			message: 'x',
			sendPush: true,
			push,
		});
		expect(result.error?.message).toMatch(message);
		expect(notificationRequests()).toHaveLength(0);
	});

	it('schedules a notification with its future date as Unix seconds, which Fliplet stores as that date', async () => {
		const at = '2030-06-01T09:30:00.000Z';
		const result = await run({
			operation: 'create',
			status: 'scheduled',
			orderAt: at,
			message: 'Later',
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.body).toEqual({
			isPushNotificationWidget: true,
			data: { message: 'Later' },
			status: 'scheduled',
			orderAt: 1906536600,
		});
		expect(result.json[0]).toEqual(expect.objectContaining({ status: 'scheduled', orderAt: at }));
		expect(sandbox().state.notifications.at(-1).orderAt).toBe(at);
	});

	it("reads a picked date without an offset in the workflow's time zone (n8n's default, New York)", async () => {
		const result = await run({
			operation: 'create',
			status: 'scheduled',
			orderAt: '2031-01-15T09:30:00',
			message: 'Later',
			sendPush: true,
			push: { delayUntil: '2031-07-01T08:00:00' },
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		// 09:30 EST is 14:30 UTC; 08:00 EDT is 12:00 UTC.
		expect(request.body.orderAt).toBe(Date.parse('2031-01-15T14:30:00.000Z') / 1000);
		expect(request.body.pushNotification.delayUntilTimestamp).toBe(
			Date.parse('2031-07-01T12:00:00.000Z') / 1000,
		);
	});

	it.each([
		[
			'a past schedule date',
			{ status: 'scheduled', orderAt: '={{ $json.when }}', message: 'x' },
			{ when: '2020-01-01T00:00:00Z' },
			/Item 1: "Scheduled For" is in the past: 2020-01-01T00:00:00.000Z/,
		],
		[
			'no content',
			{ status: 'draft', title: '={{ $json.title }}' },
			{ title: '' },
			/Item 1: the notification has no content/,
		],
		[
			'a bad scope JSON',
			{ message: 'x', scopeMode: 'json', scopeJson: '={{ $json.scope }}' },
			{ scope: [1, 2] },
			/Item 1: "Scope \(JSON\)" must be an object or an array of objects/,
		],
		[
			'a subscription that is not an id',
			{
				status: 'published',
				message: 'x',
				sendPush: true,
				push: { subscriptions: '={{ $json.subs }}' },
			},
			{ subs: '71, abc' },
			/Item 1: "Subscription IDs" must be whole numbers/,
		],
	])('refuses %s for any item before creating anything', async (_case, fields, bad, message) => {
		const good = {
			when: '2031-01-01T00:00:00Z',
			title: 'first',
			scope: [{ Office: 'London' }],
			subs: '71',
		};
		const result = await run(
			{ operation: 'create', ...fields },
			{ input: [{ json: good }, { json: { ...good, ...bad } }] },
		);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(notificationRequests()).toHaveLength(0);
	});

	it('is never re-sent after a 500: one notification created, the error says it may exist', async () => {
		sandbox().injectFault({
			mode: 'status-after',
			status: 500,
			method: 'PUT',
			path: '/notifications$',
		});
		const before = sandbox().state.notifications.length;
		const result = await run({ operation: 'create', status: 'published', message: 'Once' });
		expect(result.status).toBe('error');
		expect(notificationRequests()).toHaveLength(1);
		expect(sandbox().state.notifications.length).toBe(before + 1);
		expect(result.error?.description).toMatch(
			/notification of item 0 may already have been created: it was NOT sent again/,
		);
	});
});

describe('Notification → Create in Batch', () => {
	it('groups items per app into /notifications/batch requests and pairs each created notification', async () => {
		const input: TestItem[] = [
			{ json: { app: '11', title: 'A' } },
			{ json: { app: '21', title: 'B' } },
			{ json: { app: '11', title: 'C' } },
			{ json: { app: '11', title: 'D' } },
		];
		const result = await run(
			{
				operation: 'createBatch',
				app: { __rl: true, mode: 'id', value: '={{ $json.app }}' },
				batchSize: 2,
				status: 'published',
				title: '={{ $json.title }}',
			},
			{ input, token: TOKENS.org },
		);
		expect(result.error).toBeUndefined();
		const requests = notificationRequests();
		expect(
			requests.map((r) => [r.method, r.path, r.body.notifications.map((n: any) => n.data.title)]),
		).toEqual([
			['POST', '/v1/apps/11/notifications/batch', ['A', 'C']],
			['POST', '/v1/apps/11/notifications/batch', ['D']],
			['POST', '/v1/apps/21/notifications/batch', ['B']],
		]);
		expect(requests[0].body.notifications[0]).toEqual({
			isPushNotificationWidget: true,
			data: { title: 'A' },
			status: 'published',
		});
		expect(
			result.items.map((item) => [item.pairedItem, (item.json.data as any).title, item.json.appId]),
		).toEqual([
			[{ item: 0 }, 'A', 10],
			[{ item: 1 }, 'B', 20],
			[{ item: 2 }, 'C', 10],
			[{ item: 3 }, 'D', 10],
		]);
	});
});

describe('Notification → Create in Batch: scheduled', () => {
	it('sends each scheduled date as Unix seconds, stored as that date', async () => {
		const result = await run(
			{
				operation: 'createBatch',
				status: 'scheduled',
				orderAt: '={{ $json.at }}',
				title: '={{ $json.t }}',
			},
			{
				input: [
					{ json: { t: 'a', at: '2030-01-31T09:00:00Z' } },
					{ json: { t: 'b', at: '2030-02-28T18:30:00Z' } },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.body.notifications.map((n: any) => n.orderAt)).toEqual([
			Date.parse('2030-01-31T09:00:00Z') / 1000,
			Date.parse('2030-02-28T18:30:00Z') / 1000,
		]);
		expect(result.json.map((n) => n.orderAt)).toEqual([
			'2030-01-31T09:00:00.000Z',
			'2030-02-28T18:30:00.000Z',
		]);
	});
});

describe('Notification → Create in Batch faults', () => {
	it('does not re-send a batch after a dropped connection', async () => {
		sandbox().injectFault({ mode: 'drop-after', path: '/notifications/batch$' });
		const before = sandbox().state.notifications.length;
		const result = await run(
			{ operation: 'createBatch', batchSize: 5, status: 'draft', title: '={{ $json.t }}' },
			{ input: [{ json: { t: 'a' } }, { json: { t: 'b' } }] },
		);
		expect(result.status).toBe('error');
		expect(notificationRequests()).toHaveLength(1);
		expect(sandbox().state.notifications.length).toBe(before + 2);
		expect(result.error?.description).toMatch(
			/notification of items 0–1 may already have been created/,
		);
	});
});

describe('Notification → Update', () => {
	it('merges data (extendData) and publishes a draft', async () => {
		const result = await run({
			operation: 'update',
			notificationId: '502',
			status: 'published',
			message: 'Updated text',
		});
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect(request.method).toBe('PUT');
		expect(request.path).toBe('/v1/apps/11/notifications/502');
		expect(request.body).toEqual({
			isPushNotificationWidget: true,
			status: 'published',
			data: { message: 'Updated text' },
			extendData: true,
		});
		expect(result.json[0]).toEqual(
			expect.objectContaining({
				id: 502,
				status: 'published',
				data: { title: 'Sales call', message: 'Updated text' },
			}),
		);
		expect(result.json[0].scope).toEqual([{ department: 'Sales' }]);
	});

	it('replaces data and reschedules with Unix seconds; Everyone leaves the scope out', async () => {
		const at = '2032-02-02T08:00:00.000Z';
		const result = await run({
			operation: 'update',
			notificationId: '501',
			status: 'scheduled',
			orderAt: at,
			title: 'Replaced',
			dataMode: 'replace',
			scopeMode: 'everyone',
		});
		expect(result.error).toBeUndefined();
		const put = notificationRequests().find((r) => r.method === 'PUT')!;
		expect(put.body).toEqual({
			isPushNotificationWidget: true,
			status: 'scheduled',
			data: { title: 'Replaced' },
			extendData: false,
			orderAt: Date.parse(at) / 1000,
		});
		expect(result.json[0]).toEqual(
			expect.objectContaining({ data: { title: 'Replaced' }, status: 'scheduled', orderAt: at }),
		);
		expect(result.json[0]).not.toHaveProperty('scope');
	});

	it('refuses Everyone for a notification with an audience, which an update cannot remove', async () => {
		const result = await run({
			operation: 'update',
			notificationId: '502',
			status: 'published',
			scopeMode: 'everyone',
		});
		expect(result.error?.message).toBe(
			'Notification 502 has an audience, which an update cannot remove',
		);
		expect(result.error?.description).toMatch(/Create a new notification for Everyone/);
		expect(notificationRequests().map((r) => r.method)).toEqual(['POST']);
		expect(sandbox().state.notifications.find((n: any) => n.id === 502).status).toBe('draft');
	});

	it('is idempotent: re-sent once after a dropped connection, with the same result', async () => {
		sandbox().injectFault({ mode: 'drop-after', method: 'PUT', path: '/notifications/502$' });
		const result = await run({
			operation: 'update',
			notificationId: '502',
			status: 'published',
			title: 'Again',
		});
		expect(result.error).toBeUndefined();
		const sent = {
			isPushNotificationWidget: true,
			status: 'published',
			data: { title: 'Again' },
			extendData: true,
		};
		expect(notificationRequests().map((r) => r.body)).toEqual([sent, sent]);
		expect(result.json[0]).toEqual(
			expect.objectContaining({ id: 502, data: { title: 'Again', message: 'Team only' } }),
		);
	});

	it('refuses a notification ID that is not a number', async () => {
		const result = await run({ operation: 'update', notificationId: 'abc', status: 'published' });
		expect(result.error?.message).toMatch(/Notification ID: "abc" is not an id/);
		expect(notificationRequests()).toHaveLength(0);
	});
});

describe('Notification → Delete, Mark as Read, Get Push Subscriptions', () => {
	it('deletes a notification', async () => {
		const result = await run({ operation: 'delete', notificationId: '501' });
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect([request.method, request.path]).toEqual(['DELETE', '/v1/apps/11/notifications/501']);
		expect(result.json).toEqual([{ id: 501, deleted: true }]);
		expect(sandbox().state.notifications.find((n: any) => n.id === 501).deletedAt).not.toBeNull();
	});

	it.each([
		['delete', { operation: 'delete', notificationId: '999' }, /^Notification 999 not found/],
		[
			'mark as read',
			{
				operation: 'markAsRead',
				recipientId: '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b',
				notificationIds: '501, 999',
			},
			/^Notifications not found: 999/,
		],
	])(
		'a %s of an unknown notification says to check its ID first',
		async (_label, parameters, message) => {
			const result = await run(parameters);
			expect(result.error?.httpCode).toBe('404');
			expect(result.error?.message).toMatch(message);
			expect(result.error?.description).toMatch(
				/^Check the notification ID\(s\): Get Many lists the app's notifications/,
			);
			expect(result.error?.description).toMatch(/If the app is the problem: API tokens only reach/);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(notificationRequests()).toHaveLength(1);
		},
	);

	it('marks notifications as read for a recipient', async () => {
		const recipientId = '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b';
		const result = await run({ operation: 'markAsRead', recipientId, notificationIds: '501, 502' });
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect([request.method, request.path]).toEqual([
			'POST',
			'/v1/apps/11/notifications/mark-as-read',
		]);
		expect(request.body).toEqual({ recipientId, entries: [501, 502] });
		expect(sandbox().state.readReceipts.map((r: any) => [r.notificationId, r.recipientId])).toEqual(
			[
				[501, recipientId],
				[502, recipientId],
			],
		);
		expect(result.json).toEqual([{ recipientId, entries: [501, 502], read: true }]);
	});

	it('refuses notification IDs that are not numbers', async () => {
		const result = await run({
			operation: 'markAsRead',
			recipientId: '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b',
			notificationIds: '501, x',
		});
		expect(result.error?.message).toBe('Item 0: "Notification IDs" has values that are not IDs: x');
		expect(notificationRequests()).toHaveLength(0);
	});

	it.each([
		'r-1',
		'42',
		'ann@example.com',
		'3f2b8a9e1c4d4e5f8a6b7c8d9e0f1a2b',
		'3f2b8a9e-1c4d-4e5f-8a6b',
	])('refuses the recipient ID %j, which is not a GUID, before sending', async (recipientId) => {
		const result = await run({ operation: 'markAsRead', recipientId, notificationIds: '501' });
		expect(result.error?.message).toBe(`Item 0: "Recipient ID" is not a GUID: "${recipientId}"`);
		expect(result.error?.description).toMatch(/Give the GUID of the user/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(notificationRequests()).toHaveLength(0);
		expect(sandbox().state.readReceipts).toHaveLength(0);
	});

	it('accepts an upper-case GUID with spaces around it', async () => {
		const result = await run({
			operation: 'markAsRead',
			recipientId: ' 3F2B8A9E-1C4D-4E5F-8A6B-7C8D9E0F1A2B ',
			notificationIds: '501',
		});
		expect(result.error).toBeUndefined();
		expect(notificationRequests()[0].body.recipientId).toBe('3F2B8A9E-1C4D-4E5F-8A6B-7C8D9E0F1A2B');
	});

	it('lists push subscriptions with a Studio user token', async () => {
		const result = await run(
			{ operation: 'listSubscriptions', limit: 1 },
			{ token: TOKENS.studio },
		);
		expect(result.error).toBeUndefined();
		const [request] = notificationRequests();
		expect([request.method, request.path]).toEqual(['GET', '/v1/apps/11/subscriptions']);
		expect(result.json).toEqual([
			expect.objectContaining({ id: 71, platform: 'ios', token: 'device-token-71' }),
		]);
	});

	it('refuses a Limit of 0 for push subscriptions without calling the API', async () => {
		const result = await run(
			{ operation: 'listSubscriptions', returnAll: false, limit: 0 },
			{ token: TOKENS.studio },
		);
		expect(result.error?.message).toBe('Limit: 0 is not a whole number of at least 1');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(notificationRequests()).toHaveLength(0);
	});

	it('explains that API tokens are refused for push subscriptions', async () => {
		const result = await run({ operation: 'listSubscriptions', returnAll: true });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(
			/only Studio users list push subscriptions: app and organization API tokens are refused/,
		);
	});
});
