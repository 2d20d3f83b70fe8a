'use strict';
// Checks that need the editor's server: the node types the editor offers, and the credential test
// (n8n runs it from the server when a user clicks "Test" / saves the credential).

const assert = require('node:assert/strict');

const { OWNER, login, stopServer, waitUntilReady } = require('./editorServer');

const FLIPLET_NODE = 'n8n-nodes-fliplet.fliplet';
const CHAT_MODEL_NODE = 'n8n-nodes-fliplet.flipletChatModel';

/**
 * @param {ReturnType<import('./n8nInstance').createInstance>} instance started with ownerSettings()
 * @param {{ sandboxUrl: string, tokens: Record<string, string>, requests: () => any[] }} sandbox
 * @param {(rest: Awaited<ReturnType<typeof login>>) => Promise<void>} [whileRunning] more checks
 *   to make while the server runs (activated workflows)
 */
async function serverChecks(instance, sandbox, whileRunning) {
	const baseUrl = `http://127.0.0.1:${instance.env.N8N_PORT}`;
	const child = instance.startServer();
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	try {
		await waitUntilReady(baseUrl, child);
		const rest = await login(baseUrl, OWNER);

		const described = await rest.request('POST', '/rest/node-types', {
			nodeInfos: [{ name: FLIPLET_NODE, version: 1 }],
		});
		const [fliplet] = described.data ?? described;
		assert.equal(
			fliplet?.displayName,
			'Fliplet',
			`the editor offers the Fliplet node: ${JSON.stringify(described).slice(0, 300)}`,
		);
		assert.equal(fliplet.usableAsTool, true);
		// The Chat Model loads on every n8n line (it needs n8n 2.x only when a model is supplied).
		const model = await rest.request('POST', '/rest/node-types', {
			nodeInfos: [{ name: CHAT_MODEL_NODE, version: 1 }],
		});
		const [chatModel] = model.data ?? model;
		assert.equal(chatModel?.displayName, 'Fliplet Chat Model', JSON.stringify(model).slice(0, 300));
		assert.deepEqual(chatModel.outputs, ['ai_languageModel']);

		const test = (id, name, accessToken, baseUrl = sandbox.sandboxUrl) =>
			rest.request('POST', '/rest/credentials/test', {
				credentials: {
					id,
					name,
					type: 'flipletApi',
					data: { accessToken, region: 'custom', baseUrl },
				},
			});
		const before = sandbox.requests().length;
		const good = await test('flipletSandbox01', 'Fliplet Sandbox', sandbox.tokens.org);
		assert.equal(good.data?.status, 'OK', `credential test: ${JSON.stringify(good)}`);
		const bad = await test(
			'flipletRevoked01',
			'Fliplet Sandbox (revoked token)',
			'eu--revoked-token',
		);
		assert.equal(bad.data?.status, 'Error');
		assert.match(bad.data.message, /was refused by .*: it is unknown there or was revoked/);
		const unsafe = await test('flipletRevoked01', 'Plain http', 'eu--t', 'http://example.com');
		assert.match(unsafe.data?.message ?? '', /must start with https:\/\/.*The token was not sent/);
		const unknownHost = await test('flipletRevoked01', 'No host', 'eu--t', 'https://api.invalid');
		assert.match(unknownHost.data?.message ?? '', /The host api\.invalid could not be found/);
		const tested = sandbox.requests().slice(before);
		const sent = (token) => tested.filter((request) => request.headers['auth-token'] === token);
		assert.deepEqual(
			sent(sandbox.tokens.org).map((request) => [request.method, request.path, request.status]),
			[['GET', '/v1/apps', 200]],
		);
		const refused = sent('eu--revoked-token');
		assert.ok(refused.length >= 1, 'the revoked token was tried');
		for (const request of refused) {
			assert.deepEqual([request.path, request.status], ['/v1/apps', 401]);
		}
		if (whileRunning) await whileRunning(rest);
	} catch (error) {
		error.message += `\n--- n8n server output ---\n${output.slice(-4000)}`;
		throw error;
	} finally {
		await stopServer(child);
	}
}

module.exports = { serverChecks, FLIPLET_NODE };
