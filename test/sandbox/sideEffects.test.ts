/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { createHash } from 'node:crypto';

import { callSandbox, setSandboxReadings, TOKENS, useSandbox } from '../harness';

const { hooksSettled } = require('../../sandbox/dataSources/hooks');

// The sandbox's side effects, as the platform's code shows them: a push payload is pushed whatever
// the notification's status, and data-source hooks of every kind run on the changes that run them.
const sandbox = useSandbox();
const call = (method: string, path: string, body?: unknown) =>
	callSandbox(sandbox(), method, path, body, TOKENS.org);
const pushes = () => sandbox().state.pushes as any[];
const hookLog = () => sandbox().state.hookLog as any[];
const deviceIds = (push: any) => push.devices.map((device: any) => device.subscriptionId);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('Sandbox pushes: a push payload is sent whatever the status', () => {
	const payload = { title: 'Hi', body: 'There', sound: 'default', icon: 'icon_notification' };

	it('a draft that carries a push pushes it at once, to every device of the app', async () => {
		const created = await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Draft' },
			pushNotification: { payload },
		});
		expect(created.status).toBe(200);
		expect(created.body.notification.status).toBe('draft');
		expect(pushes()).toEqual([
			expect.objectContaining({
				appId: 10,
				notificationId: created.body.notification.id,
				status: 'draft',
				payload,
			}),
		]);
		expect(deviceIds(pushes()[0])).toEqual([71, 72]);
	});

	it('a notification without a push payload pushes nothing, whatever its status', async () => {
		await call('PUT', '/v1/apps/11/notifications', { data: { title: 'x' }, status: 'published' });
		await call('POST', '/v1/apps/11/notifications/batch', {
			notifications: [{ data: { title: 'y' } }, { data: { title: 'z' }, status: 'published' }],
		});
		await call('PUT', '/v1/apps/11/notifications/502', { status: 'published' });
		expect(pushes()).toEqual([]);
	});

	it("reaches the listed subscriptions only, or the devices of the scope's users", async () => {
		await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Listed' },
			status: 'published',
			pushNotification: { payload, subscriptions: [72] },
		});
		await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Scoped' },
			status: 'published',
			scope: [{ email: 'sandy@example.com' }],
			pushNotification: { payload },
		});
		await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Nobody' },
			status: 'published',
			scope: [{ email: 'nobody@example.com' }],
			pushNotification: { payload },
		});
		expect(pushes().map(deviceIds)).toEqual([[72], [71], []]);
	});

	it('a scheduled push is sent at its date; an update that carries a push sends it again', async () => {
		const at = Date.parse('2031-01-01T09:00:00.000Z');
		const created = await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Later' },
			status: 'scheduled',
			orderAt: at / 1000,
			pushNotification: { payload },
		});
		const id = created.body.notification.id;
		await call('PUT', `/v1/apps/11/notifications/${id}`, {
			status: 'published',
			pushNotification: { payload: { title: 'Now', body: '' } },
		});
		expect(pushes().map((push) => [push.notificationId, push.status, push.sendAt])).toEqual([
			[id, 'scheduled', '2031-01-01T09:00:00.000Z'],
			[id, 'published', expect.any(String)],
		]);
		expect(Date.parse(pushes()[1].sendAt)).toBeLessThan(at);
	});

	it('refuses a sound or an icon that is not text', async () => {
		for (const bad of [{ sound: true }, { icon: 3 }]) {
			const answer = await call('PUT', '/v1/apps/11/notifications', {
				data: { title: 'x' },
				pushNotification: { payload: { title: 'a', body: 'b', ...bad } },
			});
			expect(answer.status).toBe(400);
		}
		expect(pushes()).toEqual([]);
	});

	it('the control API shows the pushes and the hooks that ran', async () => {
		await call('PUT', '/v1/apps/11/notifications', {
			data: { title: 'Seen' },
			pushNotification: { payload },
		});
		const state = await callSandbox(sandbox(), 'GET', '/__sandbox/state', undefined, null);
		expect(state.body.pushes).toEqual([expect.objectContaining({ status: 'draft', payload })]);
		expect(state.body.hookLog).toEqual([]);
		expect(state.body.hookCalls).toEqual([]);
	});
});

describe('Sandbox hooks of every kind', () => {
	const setHooks = (hooks: unknown) => call('PUT', '/v1/data-sources/100', { hooks });
	const stored = (id: number) =>
		sandbox().state.entries.find((entry: any) => entry.id === id)?.data;

	it('a single update runs beforeSave operations on the columns it sends, and the update hooks', async () => {
		await setHooks([
			{ type: 'operations', runOn: ['beforeSave'], payload: { Password: ['hash'] } },
			{
				type: 'operations',
				runOn: ['beforeSave'],
				payload: { Email: ['lower', 'trim'], Name: ['upper'] },
			},
			{
				type: 'email',
				runOn: ['update'],
				payload: { to: [{ email: 'hr@example.com', type: 'to' }], subject: 'Changed: {{{Name}}}' },
			},
			{ type: 'sms', runOn: ['insert'], payload: { to: '+447700900123', body: 'New' } },
		]);
		const answer = await call('PUT', '/v1/data-sources/100/data/200', {
			Password: 'secret',
			Email: '  ALICE@Example.com ',
		});
		expect(answer.status).toBe(200);
		// Name was not sent: it is not upper-cased, and the stored Password is not hashed again below.
		expect(answer.body.data).toMatchObject({
			Password: sha256('secret'),
			Email: 'alice@example.com',
			Name: 'Alice Martin',
		});
		await call('PUT', '/v1/data-sources/100/data/200', { Age: 35 });
		expect(stored(200)).toMatchObject({ Password: sha256('secret'), Age: 35 });
		expect(hookLog().map((run) => [run.event, run.type, run.entryId])).toEqual([
			['beforeSave', 'operations', 200],
			['beforeSave', 'operations', 200],
			['update', 'email', 200],
			['beforeSave', 'operations', 200],
			['beforeSave', 'operations', 200],
			['update', 'email', 200],
		]);
		expect(hookLog()[2].payload.subject).toBe('Changed: Alice Martin');
	});

	it('an insert runs beforeSave, then insert hooks: operations change the stored entry, sms and push are recorded', async () => {
		await setHooks([
			{ type: 'operations', runOn: ['beforeSave'], payload: { Email: ['lower'] } },
			{
				type: 'operations',
				runOn: ['insert'],
				payload: { Approved: 'Yes' },
				conditions: [{ Email: { $regex: '.+@example.com$' } }],
			},
			{ type: 'sms', runOn: ['insert'], payload: { to: '+447700900123', body: 'Hi {{{Name}}}' } },
			{
				type: 'push',
				appId: 11,
				runOn: ['insert'],
				payload: { title: 'New: {{{Name}}}', body: 'Joined' },
			},
		]);
		const answer = await call('PUT', '/v1/data-sources/100/data', {
			Name: 'Gus',
			Email: 'GUS@EXAMPLE.COM',
		});
		expect(answer.status).toBe(200);
		expect(stored(answer.body.id)).toEqual({
			Name: 'Gus',
			Email: 'gus@example.com',
			Approved: 'Yes',
		});
		expect(hookLog().map((run) => [run.event, run.type])).toEqual([
			['beforeSave', 'operations'],
			['insert', 'operations'],
			['insert', 'sms'],
			['insert', 'push'],
		]);
		expect(hookLog()[2].payload).toEqual({ to: '+447700900123', body: 'Hi Gus' });
		expect(pushes()).toEqual([
			expect.objectContaining({
				appId: 11,
				dataSourceId: 100,
				entryId: answer.body.id,
				payload: { title: 'New: Gus', body: 'Joined' },
			}),
		]);
		expect(deviceIds(pushes()[0])).toEqual([71, 72]);
	});

	it("a push hook's filter reaches the subscriptions its matching entries hold", async () => {
		await call('PUT', '/v1/data-sources/101/data', { Topic: 'Sales', flPushSubscriptionId: 72 });
		await call('PUT', '/v1/data-sources/101/data', { Topic: 'Legal', flPushSubscriptionId: 71 });
		await setHooks([
			{
				type: 'push',
				appId: 11,
				runOn: ['update'],
				payload: { title: 'For {{{Department}}}', body: '' },
				filter: { match: { Topic: '{{Department}}' }, dataSourceId: 101 },
			},
		]);
		await call('PUT', '/v1/data-sources/100/data/200', { Age: 40 });
		expect(pushes().map(deviceIds)).toEqual([[72]]);
	});

	it('a commit runs hooks and beforeSave only for the kinds its runHooks lists; App data saves (no runHooks) run none', async () => {
		await setHooks([
			{ type: 'operations', runOn: ['beforeSave'], payload: { Password: ['hash'] } },
			{ type: 'email', runOn: ['insert', 'update'], payload: { to: [], subject: '{{event}}' } },
		]);
		const commit = (runHooks?: string[]) =>
			call('POST', '/v1/data-sources/100/commit', {
				append: true,
				extend: true,
				returnEntries: false,
				entries: [{ id: 201, data: { Password: 'p1' } }, { data: { Password: 'p2' } }],
				...(runHooks ? { runHooks } : {}),
			});
		await commit();
		expect(stored(201).Password).toBe('p1');
		expect(hookLog()).toEqual([]);
		await commit(['update']);
		expect(stored(201).Password).toBe(sha256('p1'));
		expect(hookLog().map((run) => [run.event, run.type])).toEqual([
			['beforeSave', 'operations'],
			['update', 'email'],
		]);
		// The inserts of both commits: no insert hooks were asked for, so neither was hashed.
		const inserted = sandbox().state.entries.filter((entry: any) => entry.data.Password === 'p2');
		expect(inserted).toHaveLength(2);
	});

	it('a bulk append runs beforeSave and insert hooks by default, not with runHooks false', async () => {
		await setHooks([
			{ type: 'operations', runOn: ['beforeSave'], payload: { Name: ['trim'] } },
			{ type: 'sms', runOn: ['insert'], payload: { to: '+1', body: '{{{Name}}}' } },
		]);
		await call('POST', '/v1/data-sources/100/data', {
			append: true,
			entries: [{ Name: ' One ' }],
		});
		await call('POST', '/v1/data-sources/100/data', {
			append: true,
			runHooks: false,
			entries: [{ Name: ' Two ' }],
		});
		expect(hookLog().map((run) => [run.event, run.type, run.payload?.body])).toEqual([
			['beforeSave', 'operations', undefined],
			['insert', 'sms', 'One'],
		]);
	});

	it('reading hookValues strict: a payload value that is not a string, or a name the entry lacks, stops the hook', async () => {
		setSandboxReadings(sandbox(), { hookValues: 'strict', hookTemplates: 'columns' });
		const web = (body: unknown) => ({
			type: 'web',
			runOn: ['insert'],
			payload: { method: 'POST', endpoint: 'http://127.0.0.1:9/', body },
		});
		await setHooks([
			web({ dataSourceId: 100 }),
			web({ entryId: '{{{entry.id}}}' }),
			web({ dataSourceId: '100', name: '{{Name}}' }),
			{
				type: 'sms',
				runOn: ['insert'],
				payload: { to: '+1', body: 'New: {{{Name}}}', retry: true },
			},
			{ type: 'operations', runOn: ['insert'], payload: { Name: ['trim'] } },
		]);
		await call('PUT', '/v1/data-sources/100/data', { Name: ' Ada ' });
		await hooksSettled(sandbox().state);
		expect(
			hookLog().map((run) => [run.type, run.error ?? run.payload?.body ?? run.changed]),
		).toEqual([
			['web', 'You must pass a string or Handlebars AST to Handlebars.compile. You passed 100'],
			['web', '"entry" not defined in entry.id'],
			['web', { dataSourceId: '100', name: ' Ada ' }],
			['sms', 'You must pass a string or Handlebars AST to Handlebars.compile. You passed true'],
			['operations', ['Name']],
		]);
		// Only the hook whose values were all strings called out.
		expect(sandbox().state.hookCalls.map((made: any) => made.body)).toEqual([
			{ dataSourceId: '100', name: ' Ada ' },
		]);
	});

	it('refuses a hook of an unknown type or event, and keeps what was stored', async () => {
		for (const bad of [
			[{ type: 'fax', runOn: ['insert'], payload: {} }],
			[{ type: 'email', runOn: ['delete'], payload: {} }],
			[{ type: 'operations', runOn: ['beforeSave'], payload: ['hash'] }],
		]) {
			expect((await setHooks(bad)).status).toBe(400);
		}
		await hooksSettled(sandbox().state);
		expect(sandbox().state.dataSources.find((ds: any) => ds.id === 100).hooks).toEqual([]);
	});
});
