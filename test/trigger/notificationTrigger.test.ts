/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { emittedIds, FLIPLET_TRIGGER, runPoll } from '../harness/poll';

const sandbox = useSandbox();
const app = { __rl: true, mode: 'id', value: '11' };

function poll(staticData: Record<string, any> | undefined, mode: 'trigger' | 'manual' = 'trigger') {
	return runPoll({
		parameters: { event: 'newNotification', app } as never,
		credentials: sandboxCredential(sandbox(), TOKENS.app),
		staticData,
		mode,
	});
}

let nextId = 9000;
function addNotification(title: string) {
	const at = new Date(sandbox().state.now()).toISOString();
	const notification = {
		id: nextId++,
		appId: 10,
		data: { title },
		scope: null,
		pushNotification: null,
		status: 'published',
		orderAt: at,
		createdAt: at,
		updatedAt: at,
		deletedAt: null,
	};
	sandbox().state.notifications.push(notification);
	return notification;
}

const ids = emittedIds;
/** Fliplet lists only published notifications for everyone unless asked for every one. */
const EVERYTHING = { status: ['draft', 'published', 'scheduled'], includeAllScopes: true };

describe('Fliplet Trigger → New Notification', () => {
	it('skips existing notifications, then delivers new ones once, reading by time', async () => {
		const fixed = Date.parse('2026-05-01T12:00:00.000Z');
		sandbox().state.now = () => fixed;
		const start = await poll(undefined);
		expect(start.error).toBeUndefined();
		expect(start.items).toBeNull();
		expect(apiRequests(sandbox(), /\/notifications$/)[0].body).toEqual({
			order: 'createdAt',
			direction: 'DESC',
			limit: 1,
			...EVERYTHING,
		});

		const seededNewest = sandbox()
			.state.notifications.filter((n: any) => n.appId === 10 && !n.deletedAt)
			.map((n: any) => n.createdAt)
			.sort()
			.at(-1);
		expect((start.staticData['node:Fliplet Trigger'] as any).cursor.at).toBe(seededNewest);
		const fresh = [addNotification('A'), addNotification('B'), addNotification('C')];
		const one = await poll(start.staticData);
		expect(ids(one.items)).toEqual(fresh.map((n) => n.id));
		const request = apiRequests(sandbox(), /\/notifications$/).at(-1)!;
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/apps/11/notifications');
		expect(request.body).toEqual({
			order: 'createdAt',
			direction: 'ASC',
			limit: 100,
			where: { createdAt: { $gte: seededNewest } },
			...EVERYTHING,
		});
		const draft = { ...addNotification('Draft for Sales'), status: 'draft' };
		Object.assign(sandbox().state.notifications.at(-1), {
			status: 'draft',
			scope: [{ department: 'Sales' }],
		});
		const drafted = await poll(one.staticData);
		expect(ids(drafted.items)).toEqual([draft.id]);
		const more = addNotification('D');
		const two = await poll(drafted.staticData);
		expect(ids(two.items)).toEqual([more.id]);
		expect((await poll(two.staticData)).items).toBeNull();
	});

	it('gets past more notifications sharing one timestamp than a page holds', async () => {
		const start = await poll(undefined);
		sandbox().state.now = () => Date.parse('2026-05-02T12:00:00.000Z');
		const burst = Array.from({ length: 250 }, (_, n) => addNotification(`N${n}`));
		const one = await poll(start.staticData);
		expect(ids(one.items)).toEqual(burst.map((n) => n.id));
		const limits = apiRequests(sandbox(), /\/notifications$/).map((r) => r.body.limit);
		expect(limits.slice(-3)).toEqual([100, 200, 400]);
		expect((await poll(one.staticData)).items).toBeNull();
	});

	it('"Fetch Test Event" returns the newest notification, also through the editor path (WorkflowExecute)', async () => {
		const newest = addNotification('Newest');
		const viaExecutor = await poll(undefined, 'manual');
		expect(ids(viaExecutor.items)).toEqual([newest.id]);
		expect(viaExecutor.staticData).toEqual({});

		const viaWorkflow = await runNode({
			nodeType: FLIPLET_TRIGGER,
			parameters: { event: 'newNotification', app } as never,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			mode: 'manual',
		});
		expect(viaWorkflow.error).toBeUndefined();
		expect(viaWorkflow.json.map((json) => json.id)).toEqual([newest.id]);
	});
});
