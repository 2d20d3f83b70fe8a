/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode, TOKENS } from '../harness';

interface Received {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
}

interface TestServer {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

/** A throw-away HTTP server on 127.0.0.1 that records requests and answers with `respond`. */
async function startServer(
	respond: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<TestServer> {
	const received: Received[] = [];
	const server = http.createServer((req, res) => {
		received.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
		req.resume();
		req.on('end', () => respond(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
};

const credentialFor = (baseUrl: string) => ({
	flipletApi: { accessToken: TOKENS.org, region: 'custom', baseUrl },
});

describe('redirects', () => {
	let elsewhere: TestServer;
	let api: TestServer;

	beforeEach(async () => {
		elsewhere = await startServer((_req, res) =>
			json(res, 200, { apps: [{ id: 666, name: 'Elsewhere' }] }),
		);
		api = await startServer((req, res) => {
			if (req.url === '/v1/apps') {
				res.writeHead(302, { Location: `${elsewhere.url}/v1/apps` });
				return res.end();
			}
			if (req.url === '/v1/apps/11/publish') {
				res.writeHead(307, { Location: '/v1/apps/11/publish-again' });
				return res.end();
			}
			if (req.url === '/v1/apps/11/analytics/sessions') {
				res.writeHead(301, { Location: '/v1/apps/11/analytics/sessions?moved=1' });
				return res.end();
			}
			return json(res, 200, { sessions: [{ id: 1 }] });
		});
	});

	afterEach(async () => {
		await api.close();
		await elsewhere.close();
	});

	it('a redirect to another origin is not followed, so the token never reaches it', async () => {
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: credentialFor(api.url),
		});
		expect(api.received).toHaveLength(1);
		expect(api.received[0].headers['auth-token']).toBe(TOKENS.org);
		expect(elsewhere.received.filter((request) => request.headers['auth-token'])).toHaveLength(0);
		expect(elsewhere.received).toHaveLength(0);
		expect(result.error?.message).toBe(
			`The Fliplet API redirected the request to ${elsewhere.url}; the redirect was not followed`,
		);
		expect(result.error?.description).toMatch(/only sent to the credential's own host/);
		expect(result.error?.httpCode).toBe('302');
		expect(JSON.stringify(result.error)).not.toContain(TOKENS.org);
	});

	it('a GET redirected within the same origin is followed with the token', async () => {
		const result = await runNode({
			parameters: {
				resource: 'appAnalytics',
				operation: 'getSessions',
				app: { __rl: true, mode: 'id', value: '11' },
				returnAll: true,
			},
			credentials: credentialFor(api.url),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ id: 1 }]);
		expect(api.received.map((request) => request.url)).toEqual([
			'/v1/apps/11/analytics/sessions',
			'/v1/apps/11/analytics/sessions?moved=1',
		]);
		expect(api.received[1].headers['auth-token']).toBe(TOKENS.org);
	});

	it('a POST is never re-sent to a redirect target, even on the same origin', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'id', value: '11' },
				releaseType: 'silent',
			},
			credentials: credentialFor(api.url),
		});
		expect(api.received.map((request) => request.url)).toEqual(['/v1/apps/11/publish']);
		expect(result.error?.message).toBe(
			`The Fliplet API redirected the request to ${api.url}; the redirect was not followed`,
		);
		expect(result.error?.httpCode).toBe('307');
	});
});
