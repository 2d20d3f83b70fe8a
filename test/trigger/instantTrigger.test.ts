/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	callSandbox,
	FLIPLET_INSTANT_TRIGGER,
	sandboxCredential,
	TOKENS,
	useSandbox,
	WebhookHost,
} from '../harness';

// The sandbox is plain JavaScript so scripts can run it without a build.
const { hooksSettled } = require('../../sandbox/dataSources/hooks');

const sandbox = useSandbox();
const DEPARTMENTS = 101;
const SECRET_HEADER = 'x-fliplet-hook-secret';
/** Somebody else's hook on the same data source: it must survive every publish and unpublish. */
const OTHER_HOOK = {
	type: 'email',
	runOn: ['insert'],
	payload: { to: [{ email: 'team@example.com', type: 'to' }], subject: 'New: {{{Name}}}' },
};

let host: WebhookHost;

async function startHost(events: string[] = ['insert']) {
	host = new WebhookHost(
		FLIPLET_INSTANT_TRIGGER,
		{ dataSource: { __rl: true, mode: 'id', value: String(DEPARTMENTS) }, events } as never,
		sandboxCredential(sandbox(), TOKENS.org),
	);
	await host.start();
	return host;
}

afterEach(async () => {
	await host?.stop();
});

const hooksOf = () =>
	sandbox().state.dataSources.find((ds: { id: number }) => ds.id === DEPARTMENTS).hooks;

async function settle() {
	await hooksSettled(sandbox().state);
	await host.settled();
}

async function insert(data: Record<string, unknown>) {
	const response = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${DEPARTMENTS}/data`,
		data,
		TOKENS.org,
	);
	expect(response.status).toBe(200);
	await settle();
	return response.body;
}

async function update(entryId: number, data: Record<string, unknown>) {
	const response = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${DEPARTMENTS}/data/${entryId}`,
		data,
		TOKENS.org,
	);
	expect(response.status).toBe(200);
	await settle();
	return response.body;
}

/** A call to the workflow's webhook URL, as Fliplet (or anyone who read the hook) makes it. */
const callHook = (headers: Record<string, string>, body: unknown) =>
	fetch(host.productionUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});

/** The header of a call signed with the activation's secret. */
const signed = () => ({ [SECRET_HEADER]: String(host.nodeStaticData.secret) });

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

describe('Fliplet Instant Trigger', () => {
	it('publishing adds one web hook to the data source and keeps the hooks already there', async () => {
		await seedOtherHook();
		const seeded = apiRequests(sandbox()).length;
		const writes = () =>
			apiRequests(sandbox())
				.slice(seeded)
				.filter((r) => r.method === 'PUT');
		await startHost(['insert', 'update']);
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
						body: { dataSourceId: DEPARTMENTS, entryId: '{{{entry.id}}}' },
					},
				},
			],
		});
		expect(hooksOf()).toEqual(written[0].body.hooks);

		// Publishing again (n8n restarts, re-activates) finds the hook and writes nothing.
		await host.publish();
		expect(writes()).toHaveLength(1);
		expect(hooksOf()).toHaveLength(2);
	});

	it('an inserted entry starts one execution with the entry as the API stores it', async () => {
		await startHost(['insert']);
		await host.publish();
		const stored = await insert({ Name: 'Research', id: 'R-1', createdAt: 'their own value' });

		expect(host.calls).toHaveLength(1);
		expect(host.calls[0].status).toBe(200);
		expect(host.calls[0].body).toEqual({ dataSourceId: DEPARTMENTS, entryId: String(stored.id) });
		expect(host.executions).toHaveLength(1);
		expect(host.executions[0].status).toBe('success');
		expect(host.executions[0].items.map((item) => item.json)).toEqual([
			{
				id: stored.id,
				dataSourceId: DEPARTMENTS,
				createdAt: stored.createdAt,
				updatedAt: stored.updatedAt,
				data: { Name: 'Research', id: 'R-1', createdAt: 'their own value' },
			},
		]);
		// The entry was read with the credential, by its id.
		const read = apiRequests(sandbox(), new RegExp(`/data/${stored.id}$`));
		expect(read.map((r) => [r.method, r.headers['auth-token']])).toEqual([['GET', TOKENS.org]]);
	});

	it('runs only on the chosen events, and a commit only when it asks for hooks', async () => {
		await startHost(['update']);
		await host.publish();
		const entry = await insert({ Name: 'Ops' });
		expect(host.calls).toHaveLength(0);

		await update(entry.id, { Name: 'Operations' });
		expect(host.executions.map((e) => e.items[0].json.data)).toEqual([{ Name: 'Operations' }]);

		const commit = (runHooks?: string[]) =>
			callSandbox(
				sandbox(),
				'POST',
				`/v1/data-sources/${DEPARTMENTS}/commit`,
				{
					append: true,
					returnEntries: false,
					entries: [{ id: entry.id, data: { Name: 'Ops 2' } }],
					...(runHooks ? { runHooks } : {}),
				},
				TOKENS.org,
			);
		expect((await commit()).status).toBe(200);
		await settle();
		expect(host.executions).toHaveLength(1);
		expect((await commit(['update'])).status).toBe(200);
		await settle();
		expect(host.executions.map((e) => e.items[0].json.data)).toEqual([
			{ Name: 'Operations' },
			{ Name: 'Ops 2' },
		]);
	});

	it('refuses a call without the activation secret, or with another one, and starts nothing', async () => {
		await startHost();
		await host.publish();
		const entry = await insert({ Name: 'Legal' });
		expect(host.executions).toHaveLength(1);

		const post = (headers: Record<string, string>) =>
			callHook(headers, { dataSourceId: DEPARTMENTS, entryId: String(entry.id) });
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

	it('a signed call without an entry id fails visibly instead of starting an empty run', async () => {
		await startHost();
		await host.publish();
		const response = await callHook(signed(), { dataSourceId: DEPARTMENTS, entryId: '' });
		await host.settled();
		expect(response.status).toBe(500);
		expect(host.executions).toHaveLength(1);
		expect(host.executions[0].status).toBe('error');
		expect(host.executions[0].error?.message).toBe('The hook call carried no entry id');
		expect(apiRequests(sandbox(), /\/data\//)).toHaveLength(0);
	});

	it('a replayed call starts no second run for an entry that has not changed since its last run', async () => {
		let clock = Date.parse('2026-09-02T08:00:00.000Z');
		sandbox().state.now = () => clock;
		await startHost(['insert', 'update']);
		await host.publish();
		const entry = await insert({ Name: 'Facilities' });
		expect(host.executions).toHaveLength(1);
		// Anyone who can read the data source's hooks can capture and replay a call.
		const [captured] = sandbox().state.hookCalls;
		const replay = () => callHook(captured.headers, captured.body);
		const replies = [await replay(), await replay(), await replay()];
		await host.settled();
		expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
		expect(await replies[0].json()).toEqual({
			message: `Entry ${entry.id} has not changed since its last run`,
		});
		expect(host.executions).toHaveLength(1);

		// A real change runs again, once: the replayed insert call now reads that same version.
		clock += 1_000;
		const updated = await update(entry.id, { Name: 'Facilities & Security' });
		expect((await replay()).status).toBe(200);
		await host.settled();
		expect(host.executions.map((e) => e.items[0].json.data)).toEqual([
			{ Name: 'Facilities' },
			{ Name: 'Facilities & Security' },
		]);
		// What it remembers is the entry's id and updatedAt, never the secret or the entry's data.
		const versions = [entry.updatedAt, updated.updatedAt].map(
			(time) => `${entry.id}@${Date.parse(time)}`,
		);
		expect([...(host.nodeStaticData.started as string[])].sort()).toEqual(versions.sort());
	});

	it('a call naming an entry nobody changed since publishing starts nothing', async () => {
		const [seeded] = sandbox().state.entries.filter(
			(entry: { dataSourceId: number }) => entry.dataSourceId === DEPARTMENTS,
		);
		let clock = Date.parse('2026-09-01T08:00:00.000Z');
		sandbox().state.now = () => clock;
		await startHost(['insert']);
		const before = await insert({ Name: 'Stored an hour before publishing' });
		clock += 3_600_000;
		const justBefore = await insert({ Name: 'Stored a second before publishing' });
		clock += 1_000;
		await host.publish();
		const call = (entryId: number) =>
			callHook(signed(), { dataSourceId: DEPARTMENTS, entryId: String(entryId) });
		const old = [await call(seeded.id), await call(before.id)];
		await host.settled();
		expect(old.map((reply) => reply.status)).toEqual([200, 200]);
		expect(await old[1].json()).toEqual({
			message: `Entry ${before.id} was last changed before this workflow was published, or before the runs it remembers`,
		});
		expect(host.executions).toHaveLength(0);

		// Within a minute of publishing (a lagging server clock, a commit begun just before), an
		// insert still counts: it runs once.
		expect((await call(justBefore.id)).status).toBe(200);
		expect((await call(justBefore.id)).status).toBe(200);
		await host.settled();
		expect(host.executions.map((e) => e.items[0].json.id)).toEqual([justBefore.id]);
	});

	it('unpublishing removes only its own hook: the hook list is back to what it was', async () => {
		await seedOtherHook();
		const before = JSON.parse(JSON.stringify(hooksOf()));
		await startHost(['insert', 'update']);
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
		await insert({ Name: 'After unpublish' });
		expect(host.calls).toHaveLength(0);
		expect(host.executions).toHaveLength(0);

		// A new activation gets a new secret; the old one no longer opens the door.
		await host.publish();
		expect(host.nodeStaticData.secret).not.toBe(firstSecret);
		const stale = await callHook({ [SECRET_HEADER]: String(firstSecret) }, { entryId: '1' });
		expect(stale.status).toBe(401);
		await host.unpublish();
		expect(hooksOf()).toEqual([...before, added]);
	});

	it('unpublishing after the data source was deleted succeeds and forgets the activation', async () => {
		await startHost();
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
		host = new WebhookHost(
			FLIPLET_INSTANT_TRIGGER,
			{ dataSource: { __rl: true, mode: 'id', value: '105' }, events: ['insert'] } as never,
			sandboxCredential(sandbox(), TOKENS.org),
		);
		await host.start();
		await expect(host.publish()).rejects.toMatchObject({ httpCode: '404' });
		expect(host.nodeStaticData).toEqual({});
		expect(apiRequests(sandbox()).filter((r) => r.method === 'PUT')).toHaveLength(0);
	});
});
