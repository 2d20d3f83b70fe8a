/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { Sandbox } from './sandbox';
import { TOKENS } from './sandbox';

/** A body sent exactly as written (e.g. malformed JSON), as JSON. */
export class RawJson {
	constructor(readonly text: string) {}
}

/**
 * Calls the sandbox over plain HTTP as a client of the API would: the one way tests talk to it
 * directly. The body goes as JSON (a FormData as multipart, a RawJson as written); `token` is sent
 * as Auth-token (null: none). The answer's JSON body is undefined when it has none.
 */
export async function callSandbox(
	sandbox: Pick<Sandbox, 'url'>,
	method: string,
	path: string,
	body?: unknown,
	token: string | null = TOKENS.app,
) {
	const headers: Record<string, string> = { Accept: 'application/json' };
	if (token !== null) headers['Auth-token'] = token;
	let sent: string | FormData | undefined;
	if (body instanceof FormData) sent = body;
	else if (body !== undefined) {
		headers['Content-Type'] = 'application/json';
		sent = body instanceof RawJson ? body.text : JSON.stringify(body);
	}
	const response = await fetch(sandbox.url + path, { method, headers, body: sent });
	const answer = { status: response.status, body: parseJson(await response.text()) as any };
	// The headers are there to read but not enumerable, so a test can compare { status, body } whole.
	return Object.defineProperty(answer, 'headers', {
		value: response.headers,
		enumerable: false,
	}) as typeof answer & { readonly headers: Headers };
}

function parseJson(text: string): unknown {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}
