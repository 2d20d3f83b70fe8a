/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, onSandboxRequest, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { emittedIds, runPoll } from '../harness/poll';
import { addLog } from '../organization/seedLogs';

const sandbox = useSandbox();

const parameters = {
	event: 'auditLog',
	organization: { __rl: true, mode: 'id', value: '1' },
	eventTypes: 'form.submit, app.publish',
};

function poll(
	staticData: Record<string, any> | undefined,
	extra: Record<string, unknown> = {},
	mode: 'trigger' | 'manual' = 'trigger',
) {
	return runPoll({
		parameters: { ...parameters, ...extra } as never,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
		staticData,
		mode,
	});
}

const ids = emittedIds;

describe('Fliplet Trigger → New Audit Log Event', () => {
	it('delivers nothing old on activation, then each new event exactly once', async () => {
		const first = await poll(undefined);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect((first.staticData['node:Fliplet Trigger'] as any).cursor).toEqual(
			expect.objectContaining({ key: 'auditLog:1:form.submit,app.publish' }),
		);

		const a = addLog(sandbox().state, { type: 'form.submit' });
		const b = addLog(sandbox().state, { type: 'app.publish' });
		addLog(sandbox().state, { type: 'user.login' });
		const second = await poll(first.staticData);
		expect(second.error).toBeUndefined();
		expect(ids(second.items)).toEqual([a.id, b.id]);

		const request = apiRequests(sandbox(), /\/logs$/).at(-1)!;
		expect(request.method).toBe('POST');
		expect(request.body).toEqual(
			expect.objectContaining({
				type: ['form.submit', 'app.publish'],
				sort: 'createdAt',
				order: 'ASC',
				offset: 0,
				limit: 500,
			}),
		);

		const third = await poll(second.staticData);
		expect(third.items).toBeNull();
	});

	it('loses and repeats nothing when many events share one timestamp, across polls', async () => {
		const fixed = Date.parse('2026-03-01T10:00:00.000Z');
		sandbox().state.now = () => fixed;
		const start = await poll(undefined);
		const before = Array.from({ length: 3 }, () =>
			addLog(sandbox().state, { type: 'form.submit' }),
		);
		const one = await poll(start.staticData);
		expect(ids(one.items)).toEqual(before.map((log) => log.id));
		const later = Array.from({ length: 4 }, () => addLog(sandbox().state, { type: 'form.submit' }));
		const two = await poll(one.staticData);
		expect(ids(two.items)).toEqual(later.map((log) => log.id));
		expect((await poll(two.staticData)).items).toBeNull();
	});

	it('picks up events that land between the pages of one poll, once', async () => {
		const start = await poll(undefined);
		const first = Array.from({ length: 600 }, (_, n) =>
			addLog(sandbox().state, {
				type: 'form.submit',
				createdAt: new Date(Date.UTC(2026, 5, 1) + n).toISOString(),
			}),
		);
		let landed: Array<Record<string, any>> = [];
		// Right after the first page is served, more events arrive (some sharing its last time): the
		// second page is the poll's second request (its body is read after listeners run).
		let pages = 0;
		onSandboxRequest(sandbox(), (request) => {
			if (request.path.endsWith('/logs') && ++pages === 2) {
				landed = [
					addLog(sandbox().state, { type: 'form.submit', createdAt: first[599].createdAt }),
					addLog(sandbox().state, {
						type: 'app.publish',
						createdAt: new Date(Date.UTC(2026, 5, 2)).toISOString(),
					}),
				];
			}
		});
		const one = await poll(start.staticData);
		const two = await poll(one.staticData);
		const delivered = [...ids(one.items), ...ids(two.items)];
		expect(landed).toHaveLength(2);
		expect(delivered).toEqual([...first.map((log) => log.id), ...landed.map((log) => log.id)]);
		expect(new Set(delivered).size).toBe(delivered.length);
	});

	it('bounds the work of one poll and leaves the rest for the next', async () => {
		const start = await poll(undefined);
		const logs = Array.from({ length: 25 }, (_, n) =>
			addLog(sandbox().state, {
				type: 'form.submit',
				createdAt: new Date(Date.UTC(2026, 6, 1) + Math.floor(n / 5) * 1000).toISOString(),
			}),
		);
		const one = await poll(start.staticData, { maxEventsPerPoll: 12 });
		expect(ids(one.items)).toEqual(logs.slice(0, 12).map((log) => log.id));
		const two = await poll(one.staticData, { maxEventsPerPoll: 12 });
		expect(ids(two.items)).toEqual(logs.slice(12, 24).map((log) => log.id));
		const three = await poll(two.staticData, { maxEventsPerPoll: 12 });
		expect(ids(three.items)).toEqual([logs[24].id]);
	});

	it('"Fetch Test Event" returns the latest event and leaves the cursor alone', async () => {
		const start = await poll(undefined);
		const newer = addLog(sandbox().state, { type: 'form.submit' });
		const manual = await poll(start.staticData, {}, 'manual');
		expect(manual.error).toBeUndefined();
		expect(ids(manual.items)).toEqual([newer.id]);
		expect(manual.staticData).toEqual(start.staticData);
		const next = await poll(start.staticData);
		expect(ids(next.items)).toEqual([newer.id]);
	});

	it('delivers history since "Start From" on the first poll', async () => {
		const result = await poll(undefined, {
			startFrom: '2026-01-03T00:00:00Z',
			eventTypes: 'app.publish',
		});
		const expected = sandbox()
			.state.logs.filter(
				(log: any) =>
					log.organizationId === 1 && log.type === 'app.publish' && log.createdAt >= '2026-01-03',
			)
			.map((log: any) => log.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(result.items)).toEqual(expected);
		expect(apiRequests(sandbox(), /\/logs$/)[0].body.startDate).toBe('2026-01-02T23:59:59.999Z');
	});

	it('starts over when the watched organization or types change', async () => {
		const start = await poll(undefined);
		addLog(sandbox().state, { type: 'user.login' });
		const changed = await poll(start.staticData, { eventTypes: 'user.login' });
		expect(changed.items).toBeNull();
		const login = addLog(sandbox().state, { type: 'user.login' });
		const next = await poll(changed.staticData, { eventTypes: 'user.login' });
		expect(ids(next.items)).toEqual([login.id]);
	});

	it("stops reading when the engine's poll budget runs out, and delivers the rest next time", async () => {
		const start = await poll(undefined);
		const logs = Array.from({ length: 1200 }, (_, n) =>
			addLog(sandbox().state, {
				type: 'form.submit',
				createdAt: new Date(Date.UTC(2026, 7, 1) + n).toISOString(),
			}),
		);
		const tight = (staticData: Record<string, any>) =>
			runPoll({
				parameters: parameters as never,
				credentials: sandboxCredential(sandbox(), TOKENS.org),
				staticData,
				mode: 'trigger',
				pollBudgetMs: 0,
			});
		const before = apiRequests(sandbox(), /\/logs$/).length;
		const one = await tight(start.staticData);
		expect(apiRequests(sandbox(), /\/logs$/).length - before).toBe(1);
		// The first page also holds the event the cursor stands on, which is not delivered again.
		expect(ids(one.items)).toEqual(logs.slice(0, 499).map((log) => log.id));
		// Each later poll reads again the events of the last minute it delivered (the look-back), and
		// still stops at the first page that holds something new: every poll moves on.
		const rest: unknown[] = [];
		for (let staticData = one.staticData; ; ) {
			const next = await tight(staticData);
			if (!next.items) break;
			rest.push(...ids(next.items));
			staticData = next.staticData;
		}
		expect(rest).toEqual(logs.slice(499, 1200).map((log) => log.id));
	});

	it('reports a refused organization as a poll error that says how to fix it, cursor untouched', async () => {
		const start = await poll(undefined);
		const refused = await poll(start.staticData, {
			organization: { __rl: true, mode: 'id', value: '2' },
		});
		expect(refused.items).toBeNull();
		expect(refused.error?.message).toMatch(/organization 2 is not available/);
		expect(refused.error?.description).toBeTruthy();
		expect(refused.staticData).toEqual(start.staticData);
	});

	it('refuses analytics "include" without named types before any request', async () => {
		const result = await poll(undefined, { eventTypes: '', analyticsEvents: 'include' });
		expect(result.error?.message).toMatch(/needs the other event types named/);
		expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(0);
	});

	it('drains a backlog of 10,000 events in bounded polls, each exactly once', async () => {
		const start = await poll(undefined);
		const base = Date.UTC(2026, 8, 1);
		const logs = Array.from({ length: 10_000 }, (_, n) =>
			addLog(sandbox().state, {
				type: 'form.submit',
				createdAt: new Date(base + Math.floor(n / 3)).toISOString(),
			}),
		);
		let staticData = start.staticData;
		const delivered: unknown[] = [];
		let polls = 0;
		for (;;) {
			const result = await poll(staticData);
			expect(result.error).toBeUndefined();
			staticData = result.staticData;
			if (!result.items) break;
			polls++;
			expect(result.items.length).toBeLessThanOrEqual(1000);
			delivered.push(...ids(result.items));
		}
		expect(polls).toBe(10);
		expect(delivered).toEqual(logs.map((log) => log.id));
	});
});
