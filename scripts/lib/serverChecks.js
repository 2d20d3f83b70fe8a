'use strict';
// Checks that need the editor's server: the node types the editor offers, and the credential test
// (n8n runs it from the server when a user clicks "Test" / saves the credential).

const assert = require('node:assert/strict');

const { OWNER, login, stopServer, waitUntilReady } = require('./editorServer');
const { N8N_MAJOR } = require('../install-n8n');

const FLIPLET_NODE = 'n8n-nodes-fliplet.fliplet';

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

		const test = (id, name, accessToken) =>
			rest.request('POST', '/rest/credentials/test', {
				credentials: {
					id,
					name,
					type: 'flipletApi',
					data: { accessToken, region: 'custom', baseUrl: sandbox.sandboxUrl },
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
		// n8n 1.x replaces the credential's own message by a generic one (it drops the error's cause).
		assert.match(
			bad.data.message,
			N8N_MAJOR >= 2 ? /not valid or was revoked/ : /Authorization failed/,
		);
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
