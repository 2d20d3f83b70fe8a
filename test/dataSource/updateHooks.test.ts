/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { createHash } from 'node:crypto';

import {
	apiRequests,
	callSandbox,
	FLIPLET_INSTANT_TRIGGER,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	WebhookHost,
} from '../harness';

const { hooksSettled } = require('../../sandbox/dataSources/hooks');

// Entry → Update runs the data source's hooks as the platform's single-entry update does (its
// apps and widgets update entries that way; only Studio's "App data" screen, which commits, skips
// them), unless Run Update Hooks is off.
const sandbox = useSandbox();
const STAFF = 100;
const staff = { __rl: true, mode: 'id', value: String(STAFF) };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hookLog = () => sandbox().state.hookLog as Array<Record<string, unknown>>;
const stored = (id: number) =>
	sandbox().state.entries.find((entry: { id: number }) => entry.id === id).data;

const HOOKS = [
	{ type: 'operations', runOn: ['beforeSave'], payload: { Password: ['hash'] } },
	{
		type: 'email',
		runOn: ['update'],
		payload: { to: [{ email: 'hr@example.com', type: 'to' }], subject: 'Changed: {{{Name}}}' },
	},
];

async function setHooks(hooks: unknown[] = HOOKS) {
	const answer = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${STAFF}`,
		{ hooks },
		TOKENS.org,
	);
	expect(answer.status).toBe(200);
	sandbox().requests.length = 0;
}

function update(parameters: Record<string, unknown> = {}, continueOnFail = false) {
	return runNode({
		parameters: {
			resource: 'entry',
			operation: 'update',
			dataSource: staff,
			entryId: '201',
			columns: { mappingMode: 'defineBelow', value: { Password: 'hunter2' } },
			...parameters,
		},
		credentials: sandboxCredential(sandbox()),
		continueOnFail,
	});
}

const updateRuns = () => hookLog().filter((run) => run.event === 'update');

describe('Entry → Update runs the data source hooks', () => {
	it('by default: the update hooks and the beforeSave operations run, as for an app', async () => {
		await setHooks();
		const result = await update();
		expect(result.error).toBeUndefined();
		expect(stored(201)).toMatchObject({ Name: 'Bob Stone', Password: sha256('hunter2') });
		expect(result.json[0]).toMatchObject({ id: 201, data: { Password: sha256('hunter2') } });
		expect(updateRuns()).toEqual([
			expect.objectContaining({
				type: 'email',
				entryId: 201,
				payload: expect.objectContaining({ subject: 'Changed: Bob Stone' }),
			}),
		]);
	});

	it('Replace Entry with hooks commits with runHooks: the same hooks run', async () => {
		await setHooks();
		const result = await update({
			updateMode: 'replace',
			columns: { mappingMode: 'defineBelow', value: { Name: 'Bob', Password: 'pw' } },
		});
		expect(result.error).toBeUndefined();
		expect(stored(201)).toEqual({ Name: 'Bob', Password: sha256('pw') });
		expect(updateRuns()).toHaveLength(1);
	});

	it.each([['merge'], ['replace']])(
		'Run Update Hooks off (%s): no hook runs and the columns are stored as sent',
		async (updateMode) => {
			await setHooks();
			const result = await update({ updateMode, runHooks: false });
			expect(result.error).toBeUndefined();
			expect(stored(201).Password).toBe('hunter2');
			expect(hookLog()).toEqual([]);
			expect(apiRequests(sandbox(), /commit$/)[0].body.runHooks).toBeUndefined();
		},
	);
});

describe('Entry → Update with hooks: what is retried', () => {
	it.each([
		['a connection dropped after processing', { mode: 'drop-after' as const }],
		['a 500 after processing', { mode: 'status-after' as const, status: 500 }],
	])('is not re-sent after %s: the hooks ran once', async (_label, fault) => {
		await setHooks();
		sandbox().injectFault({ ...fault, method: 'PUT', path: '/data/201$' });
		const result = await update({}, true);
		expect(apiRequests(sandbox(), /\/data\/201$/)).toHaveLength(1);
		expect(result.json[0].error).toBeDefined();
		expect(String(result.json[0].description)).toMatch(/may already have been processed/);
		expect(updateRuns()).toHaveLength(1);
	});

	it('a replace that runs hooks is not re-sent after a dropped connection', async () => {
		await setHooks();
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		const result = await update({ updateMode: 'replace' }, true);
		expect(apiRequests(sandbox(), /commit$/)).toHaveLength(1);
		expect(result.json[0].error).toBeDefined();
		expect(updateRuns()).toHaveLength(1);
	});

	it('a 429 is waited out and re-sent (refused before any work): the hooks run once', async () => {
		await setHooks();
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			method: 'PUT',
			path: '/data/201$',
			body: { message: 'Too many requests', nextValidRequestDate: new Date().toISOString() },
		});
		const result = await update();
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/data\/201$/).map((r) => r.status)).toEqual([429, 200]);
		expect(updateRuns()).toHaveLength(1);
	});
});

describe('Entry → Update starts the Instant Trigger\'s "Entry Updated"', () => {
	let host: WebhookHost | undefined;
	afterEach(async () => {
		await host?.stop();
		host = undefined;
	});

	it.each([
		['by default', {}, 1],
		['not with Run Update Hooks off', { runHooks: false }, 0],
	])('%s', async (_label, parameters, executions) => {
		host = new WebhookHost(
			FLIPLET_INSTANT_TRIGGER,
			{ dataSource: staff, events: ['update'] } as never,
			sandboxCredential(sandbox(), TOKENS.org),
		);
		await host.start();
		await host.publish();
		const result = await update({
			columns: { mappingMode: 'defineBelow', value: { Age: 41 } },
			...parameters,
		});
		expect(result.error).toBeUndefined();
		await hooksSettled(sandbox().state);
		await host.settled();
		expect(host.executions).toHaveLength(executions);
		if (executions) {
			expect(host.executions[0].status).toBe('success');
			expect(host.executions[0].items[0].json).toMatchObject({ id: 201, data: { Age: 41 } });
		}
	});
});
