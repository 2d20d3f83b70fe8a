/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The Fliplet Instant Trigger hosted as n8n hosts it (test/harness/webhook.ts): publishing and
// unpublishing its hook (every value a string), the secret, calls whatever their body says, a
// burst larger than one call delivers, and calls handled by two n8n processes. What each reading of the hook's templates
// delivers is in instantReadings.test.ts, fault schedules in instantSchedules.test.ts.
import {
	apiRequests,
	callSandbox,
	FLIPLET_INSTANT_TRIGGER,
	sandboxCredential,
	TOKENS,
	useSandbox,
	WebhookHost,
} from '../harness';
import { MOST_PER_CALL } from '../../nodes/FlipletInstantTrigger/doorbell';
import {
	DEPARTMENTS,
	instantTriggerInAnotherProcess,
	instantTriggerKit,
	SECRET_HEADER,
	versionOf,
} from './instantTriggerKit';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();
const kit = instantTriggerKit(sandbox);
/** Somebody else's hook on the same data source: it must survive every publish and unpublish. */
const OTHER_HOOK = {
	type: 'email',
	runOn: ['insert'],
	payload: { to: [{ email: 'team@example.com', type: 'to' }], subject: 'New: {{{Name}}}' },
};

afterEach(async () => {
	await kit.stop();
});

const dataSource = () =>
	sandbox().state.dataSources.find((ds: { id: number }) => ds.id === DEPARTMENTS);
const hooksOf = () => dataSource().hooks;

async function seedOtherHook() {
	const response = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${DEPARTMENTS}`,
		{ hooks: [OTHER_HOOK] },
		TOKENS.org,
	);
	expect(response.status).toBe(200);
}

/** The values at the ends of a JSON value's branches. */
function leaves(value: unknown): unknown[] {
	if (Array.isArray(value)) return value.flatMap(leaves);
	if (value && typeof value === 'object') return Object.values(value).flatMap(leaves);
	return [value];
}

/** Requests that read one entry by its id. */
const readsById = () =>
	apiRequests(sandbox()).filter(
		(request) => request.method === 'GET' && /\/data\/\d+$/.test(request.path),
	);

describe('Fliplet Instant Trigger', () => {
	it('publishing adds one web hook to the data source and keeps the hooks already there', async () => {
		await seedOtherHook();
		const seeded = apiRequests(sandbox()).length;
		const writes = () =>
			apiRequests(sandbox())
				.slice(seeded)
				.filter((r) => r.method === 'PUT');
		const host = await kit.start(['insert', 'update']);
		await host.publish();

		const secret = host.nodeStaticData.secret as string;
		expect(secret).toMatch(/^[A-Za-z0-9]{40}$/);
		expect(host.nodeStaticData.dataSourceId).toBe(DEPARTMENTS);
		const written = writes();
		expect(written).toHaveLength(1);
		expect(written[0].path).toBe(`/v1/data-sources/${DEPARTMENTS}`);
		expect(written[0].body).toEqual({
			hooks: [
				OTHER_HOOK,
				{
					type: 'web',
					runOn: ['insert', 'update'],
					payload: {
						method: 'POST',
						endpoint: host.productionUrl,
						headers: { 'X-Fliplet-Hook-Secret': secret },
						body: { dataSourceId: String(DEPARTMENTS) },
					},
				},
			],
		});
		expect(hooksOf()).toEqual(written[0].body.hooks);
		// Every value of its payload is a string with no template in it: a platform that compiles
		// each value as a template takes it, whatever a template may name there.
		const values = leaves(written[0].body.hooks[1].payload);
		expect(values).toHaveLength(4);
		for (const value of values) {
			expect(typeof value).toBe('string');
			expect(value).not.toMatch(/\{\{/);
		}
		// What it has delivered starts a minute before the hook was stored, by the platform's clock.
		expect(host.nodeStaticData.cursor).toMatchObject({
			key: `entry:updatedAt:${DEPARTMENTS}`,
			floor: new Date(Date.parse(dataSource().updatedAt) - 60_000).toISOString(),
			delivered: [],
		});

		// Publishing again (n8n restarts, re-activates) finds the hook and writes nothing.
		await host.publish();
		expect(writes()).toHaveLength(1);
		expect(hooksOf()).toHaveLength(2);
	});

	it('refuses a call without the activation secret, or with another one, and starts nothing', async () => {
		const host = await kit.start();
		await host.publish();
		const entry = await kit.insert({ Name: 'Legal' });
		expect(host.executions).toHaveLength(1);

		const post = (headers: Record<string, string>) =>
			kit.callHook(headers, { dataSourceId: DEPARTMENTS, entryId: String(entry.id) });
		const unsigned = await post({});
		const forged = await post({ [SECRET_HEADER]: 'x'.repeat(40) });
		const short = await post({ [SECRET_HEADER]: String(host.nodeStaticData.secret).slice(0, 39) });
		await host.settled();
		expect([unsigned.status, forged.status, short.status]).toEqual([401, 401, 401]);
		expect(await unsigned.json()).toEqual({
			message: 'This hook call is not signed for this workflow',
		});
		expect(host.executions).toHaveLength(1);
	});

	it('whatever a signed call says, it reads what changed; it never reads an entry by an id it names', async () => {
		const host = await kit.start(['insert', 'update']);
		await host.publish();
		const bodies: unknown[] = [
			{ dataSourceId: String(DEPARTMENTS) },
			{ dataSourceId: DEPARTMENTS, entryId: '' },
			{ dataSourceId: DEPARTMENTS, entryId: '{{{entry.id}}}' },
			{ dataSourceId: DEPARTMENTS, entryId: 'undefined' },
			{ dataSourceId: DEPARTMENTS, entryId: '99999999999999999999' },
			{ dataSourceId: DEPARTMENTS, entryId: null },
			{ dataSourceId: DEPARTMENTS, entryId: ['12'] },
			{ dataSourceId: '999' },
			{},
			'not json at all',
		];
		const call = (body: unknown) => ({ headers: kit.signed(), body });
		// Nothing changed yet: every call is answered, none starts a run.
		expect(await host.deliver(bodies.map(call), { together: true })).toEqual(bodies.map(() => 200));
		expect(host.executions).toHaveLength(0);

		host.holdCalls();
		const entry = await kit.insert({ Name: 'Finance' });
		const named = [...bodies, { entryId: String(entry.id) }, { entryId: entry.id }];
		const replies = await host.deliver(named.map(call));
		expect(replies).toEqual(named.map(() => 200));
		expect(host.executions).toHaveLength(1);
		expect(kit.deliveredVersions()).toEqual([versionOf(entry)]);
		expect(readsById()).toHaveLength(0);
	});

	it('a burst larger than one call delivers: the first call delivers 1,000 versions, the next call the rest', async () => {
		let clock = Date.parse('2026-09-07T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const host = await kit.start(['insert', 'update']);
		await host.publish();
		// Another writer adds more entries than one call delivers, without hooks (a bulk import).
		const entries = Array.from({ length: MOST_PER_CALL + 2 }, (_, n) => {
			clock += 1;
			return store.newEntry(sandbox().state, { id: DEPARTMENTS }, { Name: `Row ${n}` });
		});
		store.appendEntries(sandbox().state, DEPARTMENTS, entries);
		const call = () => ({ headers: kit.signed(), body: { dataSourceId: String(DEPARTMENTS) } });

		await host.deliver([call()]);
		expect(kit.deliveredVersions()).toEqual(
			entries.slice(0, MOST_PER_CALL).map((entry) => versionOf(entry)),
		);
		await host.deliver([call(), call()]);
		expect(host.executions.map((execution) => execution.items.length)).toEqual([MOST_PER_CALL, 2]);
		expect(kit.deliveredVersions()).toEqual(entries.map((entry) => versionOf(entry)));
		expect(readsById()).toHaveLength(0);
	});

	it('a call for an entry deleted before the call came starts nothing and fails nothing', async () => {
		const host = await kit.start(['insert']);
		await host.publish();
		host.holdCalls();
		const entry = await kit.insert({ Name: 'Temporary' });
		const deleted = await callSandbox(
			sandbox(),
			'DELETE',
			`/v1/data-sources/${DEPARTMENTS}/data/${entry.id}`,
			undefined,
			TOKENS.org,
		);
		expect(deleted.status).toBe(200);
		expect(await host.deliver(host.held)).toEqual([200]);
		expect(host.executions).toHaveLength(0);
	});

	it('an activation whose hook predates string values (a number, {{{entry.id}}}) is rewritten on the next publish', async () => {
		const host = await kit.start(['insert']);
		await host.publish();
		const [ours] = hooksOf();
		// The hook as this trigger wrote it before, with the activation's own secret.
		ours.payload.body = { dataSourceId: DEPARTMENTS, entryId: '{{{entry.id}}}' };
		const secret = host.nodeStaticData.secret;
		await host.publish();
		expect(host.nodeStaticData.secret).not.toBe(secret);
		expect(hooksOf()).toHaveLength(1);
		expect(hooksOf()[0].payload.body).toEqual({ dataSourceId: String(DEPARTMENTS) });
	});

	it('two n8n processes: calls one after the other deliver each version once; calls at the same moment lose none', async () => {
		let clock = Date.parse('2026-09-08T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const other = instantTriggerInAnotherProcess();
		const host = await kit.start(['insert', 'update'], [other]);
		await host.publish();
		host.holdCalls();
		const write = async (name: string) => {
			clock += 10;
			return await kit.insert({ Name: name });
		};
		const count = (entry: Record<string, unknown>) =>
			kit.deliveredVersions().filter((version) => version === versionOf(entry)).length;

		// Each process reads the record the other saved.
		const a = await write('A');
		await host.deliver([host.held[0]], { process: 1 });
		const b = await write('B');
		await host.deliver([host.held[1]], { process: 0 });
		await host.deliver([host.held[0], host.held[1]], { process: 1 });
		expect(kit.deliveredVersions()).toEqual([versionOf(a), versionOf(b)]);

		// Two calls handled at the same moment by two processes both read C and D before either
		// saved: each version runs at least once, and here twice (docs/triggers.md, queue mode).
		const c = await write('C');
		const d = await write('D');
		const together = [host.held[2], host.held[3]];
		// The first read waits until both calls reached n8n: neither saw the other's record.
		const bothArrived = host.arrived(host.calls.length + 2);
		sandbox().beforeHandling({ method: 'POST', path: '/data/query$', run: () => bothArrived });
		await Promise.all([
			host.deliver([together[0]], { process: 0 }),
			host.deliver([together[1]], { process: 1 }),
		]);
		expect([count(c), count(d)]).toEqual([2, 2]);
		// Whichever save came last, both hold C and D: later calls in either process run nothing.
		const runs = host.executions.length;
		await host.deliver(together, { process: 0 });
		await host.deliver(together, { process: 1 });
		expect(host.executions).toHaveLength(runs);
		const e = await write('E');
		await host.deliver([host.held[4]], { process: 1 });
		expect([count(a), count(b), count(e)]).toEqual([1, 1, 1]);
	});

	it('unpublishing removes only its own hook: the hook list is back to what it was', async () => {
		await seedOtherHook();
		const before = JSON.parse(JSON.stringify(hooksOf()));
		const host = await kit.start(['insert', 'update']);
		await host.publish();
		const firstSecret = host.nodeStaticData.secret;
		// Another writer adds a hook while the workflow is published.
		const added = { type: 'web', runOn: ['update'], payload: { endpoint: 'https://x.example' } };
		await callSandbox(
			sandbox(),
			'PUT',
			`/v1/data-sources/${DEPARTMENTS}`,
			{ hooks: [...hooksOf(), added] },
			TOKENS.org,
		);

		await host.unpublish();
		expect(hooksOf()).toEqual([...before, added]);
		expect(host.nodeStaticData).toEqual({});
		await kit.insert({ Name: 'After unpublish' });
		expect(host.calls).toHaveLength(0);
		expect(host.executions).toHaveLength(0);

		// A new activation gets a new secret; the old one no longer opens the door.
		await host.publish();
		expect(host.nodeStaticData.secret).not.toBe(firstSecret);
		const stale = await kit.callHook({ [SECRET_HEADER]: String(firstSecret) }, { entryId: '1' });
		expect(stale.status).toBe(401);
		await host.unpublish();
		expect(hooksOf()).toEqual([...before, added]);
	});

	it('unpublishing after the data source was deleted succeeds and forgets the activation', async () => {
		const host = await kit.start();
		await host.publish();
		const deleted = await callSandbox(
			sandbox(),
			'DELETE',
			`/v1/data-sources/${DEPARTMENTS}`,
			undefined,
			TOKENS.org,
		);
		expect(deleted.status).toBe(200);
		await host.unpublish();
		expect(host.nodeStaticData).toEqual({});
	});

	it('a token that may not update the data source fails publishing with the API error', async () => {
		const host = new WebhookHost(
			FLIPLET_INSTANT_TRIGGER,
			{ dataSource: { __rl: true, mode: 'id', value: '105' }, events: ['insert'] } as never,
			sandboxCredential(sandbox(), TOKENS.org),
		);
		await host.start();
		try {
			await expect(host.publish()).rejects.toMatchObject({ httpCode: '404' });
		} finally {
			await host.stop();
		}
		expect(host.nodeStaticData).toEqual({});
		expect(apiRequests(sandbox()).filter((r) => r.method === 'PUT')).toHaveLength(0);
	});
});
