/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode, TOKENS } from '../harness';

/** A server on 127.0.0.1 that records the token of every request and answers with `respond`. */
async function startServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
	const tokens: Array<string | undefined> = [];
	const server = http.createServer((req, res) => {
		tokens.push(req.headers['auth-token'] as string | undefined);
		req.resume();
		req.on('end', () => respond(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		port,
		tokens,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

type Server = Awaited<ReturnType<typeof startServer>>;

/** Location values that look like the API host but are another origin. */
const TRICKS: Array<[string, (elsewhere: number) => string]> = [
	['protocol-relative', (port) => `//127.0.0.1:${port}/v1/apps`],
	['user-info before the real host', (port) => `http://api.fliplet.com@127.0.0.1:${port}/v1/apps`],
	['another name for the same machine', (port) => `http://localhost:${port}/v1/apps`],
	['a backslash path', (port) => `/\\127.0.0.1:${port}/v1/apps`],
];

describe('redirects that disguise another host never receive the token', () => {
	let elsewhere: Server;
	let api: Server;
	let location = '';

	beforeEach(async () => {
		elsewhere = await startServer((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ apps: [{ id: 666, name: 'Elsewhere' }] }));
		});
		api = await startServer((_req, res) => {
			res.writeHead(302, { Location: location });
			res.end();
		});
	});

	afterEach(async () => {
		await api.close();
		await elsewhere.close();
	});

	it.each(TRICKS)('%s', async (_name, target) => {
		location = target(elsewhere.port);
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: {
				flipletApi: {
					accessToken: TOKENS.org,
					region: 'custom',
					baseUrl: `http://127.0.0.1:${api.port}`,
				},
			},
		});
		expect(api.tokens).toEqual([TOKENS.org]);
		expect(elsewhere.tokens.filter(Boolean)).toEqual([]);
		expect(result.json).toEqual([]);
		expect(result.error?.message).toMatch(/redirected the request .*not followed/);
	});
});
