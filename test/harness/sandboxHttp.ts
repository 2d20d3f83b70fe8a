import type { Sandbox } from './sandbox';
import { TOKENS } from './sandbox';

/**
 * Calls the sandbox over plain HTTP with a JSON body, as a client of the API would; the answer's
 * JSON body is undefined when it has none.
 */
export async function callSandbox(
	sandbox: Sandbox,
	method: string,
	path: string,
	body?: unknown,
	token: string = TOKENS.app,
) {
	const response = await fetch(sandbox.url + path, {
		method,
		headers: { 'Auth-token': token, 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}
