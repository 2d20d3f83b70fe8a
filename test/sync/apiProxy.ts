/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../harness';

/** Changes a request's JSON body before it is forwarded, or the JSON answer before it is returned. */
export interface ProxyRewrites {
	request?(path: string, body: any): any;
	response?(path: string, body: any): any;
}

export interface ApiProxy {
	url: string;
	/** The JSON answers the proxy returned (after rewriting), by request path. */
	answers: Array<{ path: string; body: any }>;
	close(): Promise<void>;
}

async function readText(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

const parse = (text: string) => (text ? JSON.parse(text) : undefined);

/**
 * An API that behaves unlike the sandbox in one documented-as-possible way (pages capped below the
 * asked size, no total...): a proxy on 127.0.0.1 in front of the sandbox that rewrites the JSON
 * of requests and answers. Everything else passes through unchanged.
 */
export async function startApiProxy(sandbox: Sandbox, rewrites: ProxyRewrites): Promise<ApiProxy> {
	const answers: ApiProxy['answers'] = [];
	const forward = async (request: IncomingMessage, response: ServerResponse) => {
		const path = (request.url ?? '/').split('?')[0];
		let text = await readText(request);
		if (text && rewrites.request) text = JSON.stringify(rewrites.request(path, parse(text)));
		const headers: Record<string, string> = {};
		for (const name of ['auth-token', 'content-type', 'accept']) {
			const value = request.headers[name];
			if (typeof value === 'string') headers[name] = value;
		}
		const upstream = await fetch(sandbox.url + (request.url ?? '/'), {
			method: request.method,
			headers,
			body: text || undefined,
		});
		let answer = await upstream.text();
		if (answer && upstream.headers.get('content-type')?.includes('json')) {
			const body = rewrites.response ? rewrites.response(path, parse(answer)) : parse(answer);
			answers.push({ path, body });
			answer = JSON.stringify(body);
		}
		response.writeHead(upstream.status, {
			'content-type': upstream.headers.get('content-type') ?? 'application/json',
		});
		response.end(answer);
	};
	const server = createServer((request, response) => {
		forward(request, response).catch((error: Error) => {
			response.writeHead(502, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ message: `Proxy failed: ${error.message}` }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		answers,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				// Kept-alive connections of the node's HTTP client would hold the server open.
				server.closeAllConnections();
			}),
	};
}
