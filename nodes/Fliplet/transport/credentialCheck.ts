import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { regionFromToken, resolveBaseUrl, type FlipletCredentialData } from './baseUrl';
import { timeoutFor } from './timeouts';

const REGION_NAMES = { eu: 'Europe', us: 'United States', ca: 'Canada' } as const;

const NEW_TOKEN =
	'create a token in Fliplet Studio (App settings → API tokens for an app token, or the organization settings for an organization token) and paste it without spaces';

/** Which host the credential talks to, and why, in words a user can act on. */
export function hostInWords(credentials: FlipletCredentialData, url: string): string {
	const region = credentials.region ?? 'auto';
	if (region === 'custom') return `the custom base URL ${url}`;
	if (region === 'auto') {
		const picked = regionFromToken(credentials.accessToken ?? '');
		return `${url} (the ${REGION_NAMES[picked]} host, picked by Region "Auto" from the token's prefix)`;
	}
	return `${url} (the ${REGION_NAMES[region]} host, set by Region)`;
}

function failure(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

function networkCode(error: unknown): string {
	const err = error as { code?: unknown; cause?: { code?: unknown } };
	const code = err?.cause?.code ?? err?.code;
	return typeof code === 'string' ? code : '';
}

/** Explains a request that never got an answer: what failed, and which field to change. */
export function unreachable(
	error: unknown,
	credentials: FlipletCredentialData,
	url: string,
): string {
	const code = networkCode(error);
	const custom = credentials.region === 'custom';
	const host = new URL(url).host;
	const fixHost = custom
		? 'Check the Base URL for typos, or pick your region (Europe, United States, Canada) instead of a custom URL.'
		: "Check this machine's internet access and DNS, or set the Region field to your account's region.";
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return `The host ${host} could not be found (${code}). ${fixHost}`;
	}
	if (code === 'ECONNREFUSED') {
		return `Nothing accepts connections at ${new URL(url).origin} (ECONNREFUSED). ${custom ? 'Check the port in the Base URL and that the server is running.' : fixHost}`;
	}
	if (/TIMEDOUT|ECONNABORTED/.test(code) || /timeout/i.test(String((error as Error)?.message))) {
		return `${host} did not answer within ${timeoutFor('data', credentials) / 1000} seconds. ${fixHost} A slow network may also need a longer "Data Timeout" (the credential's Advanced Settings).`;
	}
	if (/CERT|SELF_SIGNED|TLS|SSL/i.test(code)) {
		return `The TLS certificate of ${host} is not trusted (${code}). Use the API's own https:// address.`;
	}
	const detail = code || String((error as Error)?.message ?? 'unknown error');
	return `Could not reach ${host} (${detail}). ${fixHost}`;
}

export function answered(
	status: number,
	body: unknown,
	credentials: FlipletCredentialData,
	url: string,
): INodeCredentialTestResult {
	const where = hostInWords(credentials, url);
	if (status === 401) {
		const region =
			credentials.region === 'custom'
				? ' A token only works on the host of its own region (tokens start with it, e.g. "us--"): check that the Base URL is that region\'s host.'
				: ' A token only works on the host of its own region: check the Region field (tokens start with their region, e.g. "us--").';
		return failure(
			`The token was refused by ${where}: it is unknown there or was revoked.${region} Otherwise ${NEW_TOKEN}.`,
		);
	}
	if (status === 403) {
		return failure(
			`${where} accepted the token but refused to list its apps (403). Use an app, organization or user token; ${NEW_TOKEN}.`,
		);
	}
	if (status >= 300 && status < 400) {
		return failure(
			`${where} answered with a redirect (${status}). Set the Base URL to the API's own address (e.g. https://api.fliplet.com), not an address that redirects.`,
		);
	}
	if (status >= 200 && status < 300) {
		if (
			typeof body === 'object' &&
			body !== null &&
			Array.isArray((body as { apps?: unknown }).apps)
		) {
			return { status: 'OK', message: 'Connection successful!' };
		}
		return failure(
			`${where} answered, but not like the Fliplet API (no list of apps). Check the Base URL: it is the API's address, without /v1.`,
		);
	}
	return failure(
		`${where} answered ${status} to GET /v1/apps. ${credentials.region === 'custom' ? 'Check the Base URL: it is the API address, without /v1.' : 'The API may be unavailable: try again later.'}`,
	);
}

/**
 * The Fliplet API credential test, run by n8n from a node's `methods.credentialTest` (every node
 * using the credential points its `testedBy` here). A function rather than the credential's own
 * `test` request because n8n 1.x drops a request rule's message and shows a generic "Authorization
 * failed", and a request cannot explain a host that is unreachable or unsafe.
 */
export async function flipletApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const credentials = (credential.data ?? {}) as FlipletCredentialData;
	const token = String(credentials.accessToken ?? '').trim();
	if (!token) return failure(`The API token is empty: ${NEW_TOKEN}.`);
	const resolved = resolveBaseUrl(credentials);
	if ('error' in resolved) {
		return failure(
			`${resolved.error}. Pick your region (Europe, United States, Canada), or give an https:// base URL. The token was not sent.`,
		);
	}
	// A credential test context offers this one HTTP helper (n8n-workflow's ICredentialTestFunctions
	// has no httpRequest); it is not the deprecated node helper of the same name.
	const { request } = this.helpers;
	let response: { statusCode: number; body: unknown };
	try {
		response = (await request({
			method: 'GET',
			uri: `${resolved.url}/v1/apps`,
			headers: { 'Auth-token': token, Accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout: timeoutFor('data', credentials),
		})) as { statusCode: number; body: unknown };
	} catch (error) {
		return failure(unreachable(error, credentials, resolved.url));
	}
	return answered(response.statusCode, response.body, credentials, resolved.url);
}

/** For a node's `methods`: `methods = { credentialTest, ... }` with `testedBy: 'flipletApiTest'`. */
export const credentialTest = { flipletApiTest };
