'use strict';
// The Fliplet Instant Trigger in a real, running n8n (2.x publishes, 1.x activates), with the
// sandbox's hook templates in their strictest reading (only an entry's columns, as every vendor
// example names, and every payload value compiled as a template: a number or another name stops
// the hook), which the hook's string values pass: publishing adds its hook to a sandbox data source
// next to the hooks already there; an entry inserted into the sandbox makes the sandbox call n8n's
// production webhook URL and an execution with that entry appears; a change whose call never comes
// (a commit without hooks) is delivered with the next call; six signed calls at once start one
// execution with the entries between them; replayed calls start nothing; the Fliplet node's
// Entry → Update, run by another workflow in the same n8n, starts "Entry Updated"; a call without
// the activation's secret is refused and starts nothing; after unpublishing the hook list is what
// it was, and a new entry starts nothing.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { createSandbox, TOKENS } = require('../../sandbox');
const { hooksSettled } = require('../../sandbox/dataSources/hooks');
const { setReadings } = require('../../sandbox/dataSources/readings');

const NODE_TYPE = 'n8n-nodes-fliplet.flipletInstantTrigger';
const DATA_SOURCE = 101;
const OTHER_HOOK = {
	type: 'email',
	runOn: ['insert'],
	payload: { to: [{ email: 'team@example.com', type: 'to' }], subject: 'New: {{{Name}}}' },
};
/** How long "nothing happens" is watched for. */
const QUIET_MS = 2000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const dataOf = (reply) => reply?.data ?? reply;

async function call(sandbox, method, path, body) {
	const response = await fetch(sandbox.url + path, {
		method,
		headers: { 'Auth-token': TOKENS.org, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
	return text ? JSON.parse(text) : undefined;
}

/** Resolves with `read()`'s value once `done` holds for it (n8n 2.x publishes in the background). */
async function waitFor(read, done, what, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
		await sleep(100);
	}
}

const hooksOf = async (sandbox) =>
	(await call(sandbox, 'GET', `/v1/data-sources/${DATA_SOURCE}`)).dataSource.hooks;

/** n8n 2.x publishes a workflow version; 1.x sets `active` on the workflow. */
async function setActive(rest, workflow, active) {
	try {
		return dataOf(
			await rest.request(
				'POST',
				`/rest/workflows/${workflow.id}/${active ? 'activate' : 'deactivate'}`,
				active ? { versionId: workflow.versionId } : {},
			),
		);
	} catch (error) {
		if (!/: 404 /.test(error.message)) throw error;
		return dataOf(
			await rest.request('PATCH', `/rest/workflows/${workflow.id}`, {
				active,
				versionId: workflow.versionId,
			}),
		);
	}
}

async function executionsOf(rest, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const listed = dataOf(await rest.request('GET', `/rest/executions?filter=${filter}`));
	return listed?.results ?? listed ?? [];
}

/**
 * Entry → Update of the Fliplet node, in a second workflow of the same n8n (started by n8n's
 * Webhook node, so both n8n lines run it the same way): the single-entry update runs the data
 * source's update hooks, so the trigger's "Entry Updated" starts an execution with the new value.
 */
async function updateThroughTheNode(
	rest,
	{ sandbox, credential, entry, workflow, endpoint, executions },
	log,
) {
	const path = `fliplet-e2e-update-${crypto.randomUUID()}`;
	let updater = dataOf(
		await rest.request('POST', '/rest/workflows', {
			name: 'Fliplet Entry → Update (end-to-end)',
			active: false,
			nodes: [
				{
					id: crypto.randomUUID(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: crypto.randomUUID(),
					parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
				},
				{
					id: crypto.randomUUID(),
					name: 'Update Entry',
					type: 'n8n-nodes-fliplet.fliplet',
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'entry',
						operation: 'update',
						dataSource: { __rl: true, mode: 'id', value: String(DATA_SOURCE) },
						entryId: '={{ $json.body.entryId }}',
						columns: { mappingMode: 'defineBelow', value: { Name: 'Updated row' } },
					},
					credentials: { flipletApi: { id: credential.id, name: credential.name } },
				},
			],
			connections: {
				Webhook: { main: [[{ node: 'Update Entry', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		}),
	);
	updater = { ...updater, ...(await setActive(rest, updater, true)) };
	const url = endpoint.payload.endpoint.replace(/\/webhook\/.*$/, `/webhook/${path}`);
	const answer = await waitFor(
		async () =>
			fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ entryId: entry.id }),
			}).then(async (response) => ({ status: response.status, text: await response.text() })),
		// n8n 2.x registers a published workflow's webhook in the background.
		(reply) => reply.status !== 404,
		'the Entry → Update workflow answers its webhook',
	);
	const updatedAt = Date.now();
	assert.equal(answer.status, 200, `Entry → Update ran: ${answer.text}`);
	assert.match(answer.text, /Updated row/, 'the node output the updated entry');
	const updates = sandbox.requests.filter((request) => request.method === 'PUT');
	assert.ok(
		updates.some((request) => request.path === `/v1/data-sources/${DATA_SOURCE}/data/${entry.id}`),
		'the node sent the single-entry update',
	);
	const listed = await waitFor(
		() => executionsOf(rest, workflow.id),
		(listed) => listed.length === executions + 1,
		'an execution for the update',
		30_000,
	);
	await hooksSettled(sandbox.state);
	const hookCall = sandbox.state.hookCalls.find((call) => call.event === 'update');
	assert.equal(
		hookCall?.status,
		200,
		`the update's hook call reached n8n: ${JSON.stringify(hookCall)}`,
	);
	assert.equal(hookCall.entryId, entry.id);
	const newest = listed.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
	const details = dataOf(await rest.request('GET', `/rest/executions/${newest.id}`));
	assert.match(JSON.stringify(details), /Updated row/, 'the execution holds the updated entry');
	await setActive(rest, updater, false);
	log(
		`  ✓ instant trigger: Entry → Update started "Entry Updated" (execution listed ${Date.now() - updatedAt} ms after the update answered)`,
	);
}

/**
 * @param {{ request(method: string, route: string, body?: unknown): Promise<any> }} rest the
 *   logged-in REST client of the running n8n
 * @param {(message: string) => void} log
 */
async function instantTriggerCheck(rest, log) {
	const sandbox = createSandbox({ rateLimits: false });
	// The strictest reading no vendor example contradicts: templates name an entry's columns only,
	// and every payload value is compiled as a template.
	setReadings(sandbox.state, { hookTemplates: 'columns', hookValues: 'strict' });
	await sandbox.start(0, '127.0.0.1');
	try {
		await call(sandbox, 'PUT', `/v1/data-sources/${DATA_SOURCE}`, { hooks: [OTHER_HOOK] });
		const before = await hooksOf(sandbox);

		const credential = dataOf(
			await rest.request('POST', '/rest/credentials', {
				name: 'Fliplet Sandbox (instant trigger)',
				type: 'flipletApi',
				data: { accessToken: TOKENS.org, region: 'custom', baseUrl: sandbox.url },
			}),
		);
		const webhookId = crypto.randomUUID();
		let workflow = dataOf(
			await rest.request('POST', '/rest/workflows', {
				name: 'Fliplet Instant Trigger (end-to-end)',
				active: false,
				nodes: [
					{
						id: crypto.randomUUID(),
						name: 'Fliplet Instant Trigger',
						type: NODE_TYPE,
						typeVersion: 1,
						position: [0, 0],
						webhookId,
						parameters: {
							dataSource: { __rl: true, mode: 'id', value: String(DATA_SOURCE) },
							events: ['insert', 'update'],
						},
						credentials: { flipletApi: { id: credential.id, name: credential.name } },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			}),
		);

		workflow = { ...workflow, ...(await setActive(rest, workflow, true)) };
		const published = await waitFor(
			() => hooksOf(sandbox),
			(hooks) => hooks.length === 2,
			'publishing adds one hook',
		);
		assert.deepEqual(published[0], before[0], 'the hook already there is kept as it was');
		const ours = published[1];
		// n8n saves the activation's secret right after the hook is written: calls that arrive in
		// between are refused, so the insert waits until the saved workflow holds the secret.
		const secret = ours.payload.headers['X-Fliplet-Hook-Secret'];
		await waitFor(
			async () => dataOf(await rest.request('GET', `/rest/workflows/${workflow.id}`)).staticData,
			(staticData) => JSON.stringify(staticData ?? {}).includes(secret),
			'n8n saves the activation secret',
		);
		assert.equal(ours.type, 'web');
		assert.deepEqual(ours.runOn, ['insert', 'update']);
		assert.match(ours.payload.endpoint, new RegExp(`/webhook/${webhookId}/webhook$`));

		const insertedAt = Date.now();
		const entry = await call(sandbox, 'PUT', `/v1/data-sources/${DATA_SOURCE}/data`, {
			Name: 'Instant row',
		});
		let executions = [];
		while (Date.now() - insertedAt < 30_000) {
			executions = await executionsOf(rest, workflow.id);
			if (executions.length) break;
			await sleep(50);
		}
		const latency = Date.now() - insertedAt;
		assert.equal(
			executions.length,
			1,
			`one execution after the insert; hook calls: ${JSON.stringify(sandbox.state.hookCalls)}`,
		);
		await hooksSettled(sandbox.state);
		const [hookCall] = sandbox.state.hookCalls;
		assert.equal(hookCall.status, 200, `the hook call reached n8n: ${JSON.stringify(hookCall)}`);
		assert.equal(hookCall.entryId, entry.id);
		assert.deepEqual(hookCall.body, { dataSourceId: String(DATA_SOURCE) }, 'strings only');
		const details = dataOf(await rest.request('GET', `/rest/executions/${executions[0].id}`));
		assert.match(JSON.stringify(details), /Instant row/, 'the execution holds the inserted entry');
		log(
			`  ✓ instant trigger: hook call answered by n8n in ${hookCall.ms} ms, execution listed ${latency} ms after the insert`,
		);

		// A second insert, once n8n has handled one call (the first pays for loading the workflow).
		const secondAt = Date.now();
		await call(sandbox, 'PUT', `/v1/data-sources/${DATA_SOURCE}/data`, { Name: 'Second row' });
		await waitFor(
			() => executionsOf(rest, workflow.id),
			(listed) => listed.length === 2,
			'a second execution',
			30_000,
		);
		await hooksSettled(sandbox.state);
		log(
			`  ✓ instant trigger: second insert: hook call answered in ${sandbox.state.hookCalls[1].ms} ms, execution listed ${Date.now() - secondAt} ms after it`,
		);

		const signedCall = (body) =>
			fetch(ours.payload.endpoint, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'X-Fliplet-Hook-Secret': secret },
				body: JSON.stringify(body),
			});
		let executionCount = 2;
		/** Waits for the next execution; returns what n8n stored of it. */
		const nextExecution = async (what) => {
			executionCount += 1;
			const listed = await waitFor(
				() => executionsOf(rest, workflow.id),
				(runs) => runs.length === executionCount,
				what,
				30_000,
			);
			const newest = listed.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
			return JSON.stringify(dataOf(await rest.request('GET', `/rest/executions/${newest.id}`)));
		};
		const commitWithoutHooks = (names) =>
			call(sandbox, 'POST', `/v1/data-sources/${DATA_SOURCE}/commit`, {
				append: true,
				returnEntries: false,
				entries: names.map((Name) => ({ data: { Name } })),
			});

		// A change whose call never comes (a commit without hooks), then an insert: its call
		// delivers both.
		await commitWithoutHooks(['Silent row']);
		await call(sandbox, 'PUT', `/v1/data-sources/${DATA_SOURCE}/data`, { Name: 'Loud row' });
		const caughtUp = await nextExecution('an execution for the missed change and the next');
		assert.match(caughtUp, /Silent row/, 'the change whose call never came is delivered');
		assert.match(caughtUp, /Loud row/, 'with the change whose call came');
		log('  ✓ instant trigger: a change whose call never came was delivered with the next call');

		// Six signed calls at once (as a burst of hook calls), three new entries between them: one
		// execution holds all three, and nothing more starts.
		await commitWithoutHooks(['Quiet 1', 'Quiet 2', 'Quiet 3']);
		const burst = await Promise.all(
			Array.from({ length: 6 }, () => signedCall({ dataSourceId: String(DATA_SOURCE) })),
		);
		assert.deepEqual(
			burst.map((reply) => reply.status),
			[200, 200, 200, 200, 200, 200],
		);
		const together = await nextExecution('one execution for six calls at once');
		for (const name of ['Quiet 1', 'Quiet 2', 'Quiet 3']) assert.match(together, new RegExp(name));
		// Replays of a captured call, and the burst again: nothing new.
		const captured = sandbox.state.hookCalls[0];
		for (let n = 0; n < 3; n++) {
			const replay = await signedCall(captured.body);
			assert.equal(replay.status, 200, 'a replayed call is answered');
		}
		await Promise.all(Array.from({ length: 3 }, () => signedCall({ dataSourceId: DATA_SOURCE })));
		await sleep(QUIET_MS);
		assert.equal((await executionsOf(rest, workflow.id)).length, executionCount, 'no more runs');
		log(
			'  ✓ instant trigger: six calls at once started one execution with the three new entries; replays started none',
		);

		await updateThroughTheNode(
			rest,
			{ sandbox, credential, entry, workflow, endpoint: ours, executions: executionCount },
			log,
		);
		executionCount += 1;

		const unsigned = await fetch(ours.payload.endpoint, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ dataSourceId: DATA_SOURCE, entryId: String(entry.id) }),
		});
		assert.ok([401, 403].includes(unsigned.status), `unsigned call refused: ${unsigned.status}`);
		await sleep(QUIET_MS);
		assert.equal(
			(await executionsOf(rest, workflow.id)).length,
			executionCount,
			'no execution for it',
		);

		await setActive(rest, workflow, false);
		await waitFor(
			() => hooksOf(sandbox),
			(hooks) => hooks.length === before.length,
			'unpublishing removes the hook',
		);
		assert.deepEqual(await hooksOf(sandbox), before, 'the hook list is back to what it was');
		const calls = sandbox.state.hookCalls.length;
		await call(sandbox, 'PUT', `/v1/data-sources/${DATA_SOURCE}/data`, { Name: 'After' });
		await hooksSettled(sandbox.state);
		await sleep(QUIET_MS);
		assert.equal(sandbox.state.hookCalls.length, calls, 'no hook call after unpublishing');
		assert.equal(
			(await executionsOf(rest, workflow.id)).length,
			executionCount,
			'no execution after it',
		);
		log('  ✓ instant trigger: unsigned call refused; unpublished, hooks as before, no execution');
		return { latencyMs: latency };
	} finally {
		await sandbox.stop();
	}
}

module.exports = { instantTriggerCheck, waitFor, executionsOf, dataOf };
