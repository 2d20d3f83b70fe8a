'use strict';
// An AI Agent on the Fliplet Chat Model in a real, running n8n 2.x (once with an OpenAI model in
// the chat-completions format, once with Gemini in the generate-content format), started by a Webhook that
// streams its answer (as a chat does): the streamed answer arrives, and the run data shows the
// tokens the platform counted (not n8n's estimate). Then, with the model's answer held back, the
// execution is stopped as the editor's Stop button does: the model request in flight is aborted
// (the sandbox sees its client leave) and no further AI call follows.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { createSandbox, TOKENS } = require('../../sandbox');
const { dataOf, executionsOf, waitFor } = require('./instantTrigger');

const COMPLETIONS = '/v1/apps/11/ai/completions';
/** The held answer: far longer than the check waits for the abort. */
const HELD_MS = 120_000;
const QUIET_MS = 2000;
/** An OpenAI model (chat completions) and a Gemini model (generate-content). */
const MODELS = ['gpt-4o-mini', 'gemini-2.5-flash'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** n8n's REST answers an execution's data in the "flatted" form: strings are indexes of values. */
function unflatten(text) {
	const values = JSON.parse(text);
	const revived = new Set();
	const revive = (value) => {
		if (typeof value !== 'object' || value === null || revived.has(value)) return value;
		revived.add(value);
		for (const key of Object.keys(value)) {
			const entry = value[key];
			value[key] = revive(typeof entry === 'string' ? values[Number(entry)] : entry);
		}
		return value;
	};
	return revive(values[0]);
}

function workflowOf(credential, webhookPath, modelId) {
	const node = (name, type, typeVersion, parameters, position) => ({
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion,
		position,
		parameters,
	});
	const webhook = node(
		'Chat',
		'n8n-nodes-base.webhook',
		2.1,
		{ httpMethod: 'POST', path: webhookPath, responseMode: 'streaming', options: {} },
		[0, 0],
	);
	webhook.webhookId = crypto.randomUUID();
	const model = node(
		'Fliplet Chat Model',
		'n8n-nodes-fliplet.flipletChatModel',
		1,
		{
			app: { __rl: true, mode: 'id', value: '11' },
			model: { __rl: true, mode: 'list', value: modelId },
			options: {},
		},
		[200, 200],
	);
	model.credentials = { flipletApi: { id: credential.id, name: credential.name } };
	return {
		name: `Fliplet Chat Model: streaming agent on ${modelId} (end-to-end)`,
		active: false,
		nodes: [
			webhook,
			node(
				'AI Agent',
				'@n8n/n8n-nodes-langchain.agent',
				3.1,
				{
					promptType: 'define',
					text: '={{ $json.body.chatInput }}',
					options: { enableStreaming: true },
				},
				[200, 0],
			),
			model,
		],
		connections: {
			Chat: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Fliplet Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/** What n8n's tracer wrote for each call of the Chat Model in an execution's run data. */
async function tracedCalls(rest, executionId) {
	const details = dataOf(await rest.request('GET', `/rest/executions/${executionId}`));
	const data = typeof details.data === 'string' ? unflatten(details.data) : details.data;
	const runs = data?.resultData?.runData?.['Fliplet Chat Model'] ?? [];
	return runs.map((run) => run.data?.ai_languageModel?.[0]?.[0]?.json ?? {});
}

/**
 * @param {{ request(method: string, route: string, body?: unknown): Promise<any> }} rest the
 *   logged-in REST client of the running n8n
 * @param {string} baseUrl the running n8n's address
 * @param {(message: string) => void} log
 */
async function agentStreamCheck(rest, baseUrl, log) {
	for (const modelId of MODELS) await checkModel(rest, baseUrl, modelId, log);
}

async function checkModel(rest, baseUrl, modelId, log) {
	const sandbox = createSandbox({ rateLimits: false });
	await sandbox.start(0, '127.0.0.1');
	try {
		const credential = dataOf(
			await rest.request('POST', '/rest/credentials', {
				name: 'Fliplet Sandbox (streaming agent)',
				type: 'flipletApi',
				data: { accessToken: TOKENS.org, region: 'custom', baseUrl: sandbox.url },
			}),
		);
		const webhookPath = `fliplet-agent-${crypto.randomUUID()}`;
		const workflow = dataOf(
			await rest.request('POST', '/rest/workflows', workflowOf(credential, webhookPath, modelId)),
		);
		await rest.request('POST', `/rest/workflows/${workflow.id}/activate`, {
			versionId: workflow.versionId,
		});
		const ask = (chatInput, signal) =>
			fetch(`${baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ chatInput }),
				signal,
			});

		// A streamed answer, and the tokens the platform counted in the run data.
		const streamed = await waitFor(
			async () => {
				const response = await ask('Hello stream');
				return { status: response.status, text: await response.text() };
			},
			(answer) => answer.status === 200,
			'the activated webhook answers',
		);
		assert.match(streamed.text, /"type":"item"/, `a streamed answer: ${streamed.text}`);
		assert.match(streamed.text, /Echo: /);
		const [done] = await waitFor(
			() => executionsOf(rest, workflow.id),
			(listed) => listed.length === 1 && listed[0].status === 'success',
			'the streamed execution succeeds',
		);
		const traced = await tracedCalls(rest, done.id);
		assert.equal(traced.length, 1, JSON.stringify(traced));
		assert.equal(sandbox.state.ai.calls.length, 1, 'one model call');
		assert.equal(sandbox.state.ai.calls[0].model, modelId);
		assert.ok(
			traced[0].tokenUsage,
			`counted tokens, not an estimate: ${JSON.stringify(traced[0])}`,
		);
		assert.equal(traced[0].tokenUsageEstimate, undefined);
		log(
			`  ✓ streaming agent (${modelId}): answer streamed, run data tokens ${JSON.stringify(traced[0].tokenUsage)}`,
		);

		// Stopped while the model's answer is held back: the request in flight is aborted.
		sandbox.injectFault({ mode: 'delay', delayMs: HELD_MS, path: 'ai/completions' });
		const client = new AbortController();
		const pending = ask('Hello again', client.signal)
			.then((response) => response.text())
			.catch(() => '');
		await waitFor(
			() => sandbox.state.ai.calls.length,
			(calls) => calls === 2,
			'the second model call reaches the platform',
		);
		const [running] = await waitFor(
			async () => (await executionsOf(rest, workflow.id)).filter((run) => run.status === 'running'),
			(listed) => listed.length === 1,
			'the second execution is running',
		);
		const stoppedAt = Date.now();
		await rest.request('POST', `/rest/executions/${running.id}/stop`);
		await waitFor(
			() => sandbox.state.ai.calls[1].cancelled === true,
			Boolean,
			'the model request in flight is aborted',
		);
		const abortMs = Date.now() - stoppedAt;
		await sleep(QUIET_MS);
		assert.equal(
			sandbox.requests.filter((request) => request.path === COMPLETIONS).length,
			2,
			'no AI call after the stop',
		);
		client.abort();
		await pending;
		await rest.request('POST', `/rest/workflows/${workflow.id}/deactivate`, {});
		log(
			`  ✓ streaming agent (${modelId}): stopped, the model request in flight aborted ${abortMs} ms later, no further call`,
		);
	} finally {
		await sandbox.stop();
	}
}

module.exports = { agentStreamCheck };
