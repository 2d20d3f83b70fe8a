// What the credential test says for each answer and each failure, word for word. credential.test.ts
// runs the test as n8n does against the sandbox; the regions' own hosts are not reachable from a
// test, so the wording for them (and for the failures a loopback server cannot produce: a TLS
// error, a timeout, an unknown code) is checked on the functions that build it.
import type { FlipletCredentialData } from '../../nodes/Fliplet/transport/baseUrl';
import { answered, hostInWords, unreachable } from '../../nodes/Fliplet/transport/credentialCheck';

const EU = 'https://api.fliplet.com';
const CUSTOM: FlipletCredentialData = {
	region: 'custom',
	baseUrl: 'https://fliplet.example.com',
	accessToken: 'eu--abc',
};
const NEW_TOKEN =
	'create a token in Fliplet Studio (App settings → API tokens for an app token, or the organization settings for an organization token) and paste it without spaces';
const FIX_REGION =
	"Check this machine's internet access and DNS, or set the Region field to your account's region.";
const FIX_CUSTOM =
	'Check the Base URL for typos, or pick your region (Europe, United States, Canada) instead of a custom URL.';

/** An error as n8n's request helper throws one: a code on the error or on its cause. */
const networkError = (message: string, code?: unknown, causeCode?: unknown) =>
	Object.assign(new Error(message), {
		code,
		cause: causeCode === undefined ? undefined : { code: causeCode },
	});

describe('which host the credential talks to, in words', () => {
	it.each([
		[{ region: 'auto', accessToken: 'us--abc' }, 'United States', 'picked by Region "Auto"'],
		[{ region: 'auto', accessToken: 'ca--abc' }, 'Canada', 'picked by Region "Auto"'],
		[{ region: 'auto', accessToken: 'abc' }, 'Europe', 'picked by Region "Auto"'],
		[{ accessToken: 'us--abc' }, 'United States', 'picked by Region "Auto"'],
		[{ region: 'eu', accessToken: 'us--abc' }, 'Europe', 'set by Region'],
		[{ region: 'ca', accessToken: 'eu--abc' }, 'Canada', 'set by Region'],
	] as Array<[FlipletCredentialData, string, string]>)(
		'%j: the %s host',
		(credentials, name, why) => {
			const suffix = why === 'set by Region' ? why : `${why} from the token's prefix`;
			expect(hostInWords(credentials, EU)).toBe(`${EU} (the ${name} host, ${suffix})`);
		},
	);

	it('Region "Auto" without a token reads as the Europe host', () => {
		expect(hostInWords({ region: 'auto' }, EU)).toBe(
			`${EU} (the Europe host, picked by Region "Auto" from the token's prefix)`,
		);
	});

	it('a custom base URL is named as such', () => {
		expect(hostInWords(CUSTOM, 'https://fliplet.example.com')).toBe(
			'the custom base URL https://fliplet.example.com',
		);
	});
});

describe('a request that never got an answer', () => {
	const region: FlipletCredentialData = { region: 'eu', accessToken: 'eu--abc', timeout: 20 };

	it.each([
		['ENOTFOUND', region, `The host api.fliplet.com could not be found (ENOTFOUND). ${FIX_REGION}`],
		['EAI_AGAIN', CUSTOM, `The host api.fliplet.com could not be found (EAI_AGAIN). ${FIX_CUSTOM}`],
		[
			'ECONNREFUSED',
			region,
			`Nothing accepts connections at https://api.fliplet.com (ECONNREFUSED). ${FIX_REGION}`,
		],
		[
			'ECONNREFUSED',
			CUSTOM,
			'Nothing accepts connections at https://api.fliplet.com (ECONNREFUSED). Check the port in the Base URL and that the server is running.',
		],
		[
			'ETIMEDOUT',
			region,
			`api.fliplet.com did not answer within 20 seconds. ${FIX_REGION} A slow network may also need a longer "Data Timeout" (the credential's Advanced Settings).`,
		],
		[
			'ECONNABORTED',
			CUSTOM,
			`api.fliplet.com did not answer within 60 seconds. ${FIX_CUSTOM} A slow network may also need a longer "Data Timeout" (the credential's Advanced Settings).`,
		],
		[
			'CERT_HAS_EXPIRED',
			region,
			"The TLS certificate of api.fliplet.com is not trusted (CERT_HAS_EXPIRED). Use the API's own https:// address.",
		],
		[
			'DEPTH_ZERO_SELF_SIGNED_CERT',
			CUSTOM,
			"The TLS certificate of api.fliplet.com is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT). Use the API's own https:// address.",
		],
		['EHOSTUNREACH', region, `Could not reach api.fliplet.com (EHOSTUNREACH). ${FIX_REGION}`],
	] as Array<[string, FlipletCredentialData, string]>)('%s (%j)', (code, credentials, message) => {
		expect(unreachable(networkError('request failed', code), credentials, EU)).toBe(message);
	});

	it('reads the code of the cause first, as n8n wraps the client error', () => {
		const error = networkError('request failed', 'EPROTO', 'ENOTFOUND');
		expect(unreachable(error, region, EU)).toMatch(
			/^The host api\.fliplet\.com could not be found \(ENOTFOUND\)/,
		);
	});

	it('reads the code of the error itself when its cause has none', () => {
		const error = Object.assign(new Error('request failed'), { code: 'ENOTFOUND', cause: {} });
		expect(unreachable(error, region, EU)).toMatch(/could not be found \(ENOTFOUND\)/);
	});

	it('a timeout named only in the message is a timeout', () => {
		expect(unreachable(networkError('timeout of 20000ms exceeded'), region, EU)).toBe(
			`api.fliplet.com did not answer within 20 seconds. ${FIX_REGION} A slow network may also need a longer "Data Timeout" (the credential's Advanced Settings).`,
		);
	});

	it('without a code, the message says what failed', () => {
		expect(unreachable(networkError('socket closed by proxy'), region, EU)).toBe(
			`Could not reach api.fliplet.com (socket closed by proxy). ${FIX_REGION}`,
		);
	});

	it('a code that is not text is not shown as one', () => {
		expect(unreachable(networkError('socket closed by proxy', 42), region, EU)).toBe(
			`Could not reach api.fliplet.com (socket closed by proxy). ${FIX_REGION}`,
		);
	});

	it('a failure without an error object still says something', () => {
		expect(unreachable(undefined, region, EU)).toBe(
			`Could not reach api.fliplet.com (unknown error). ${FIX_REGION}`,
		);
	});
});

describe('what an answer to GET /v1/apps means', () => {
	const auto: FlipletCredentialData = { region: 'auto', accessToken: 'us--abc' };
	const US = 'https://us.api.fliplet.com';
	const usWhere = `${US} (the United States host, picked by Region "Auto" from the token's prefix)`;

	it('a list of apps: the connection works', () => {
		expect(answered(200, { apps: [] }, auto, US)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(answered(299, { apps: [{ id: 1 }] }, auto, US).status).toBe('OK');
	});

	it.each([
		['no body', undefined],
		['null', null],
		['text', 'apps'],
		['apps that are not a list', { apps: 'none' }],
		['another object', { data: [] }],
	])('a 200 with %s is not the Fliplet API', (_name, body) => {
		expect(answered(200, body, auto, US)).toEqual({
			status: 'Error',
			message: `${usWhere} answered, but not like the Fliplet API (no list of apps). Check the Base URL: it is the API's address, without /v1.`,
		});
	});

	it('401 on a region: the Region field is what to check', () => {
		expect(answered(401, {}, auto, US)).toEqual({
			status: 'Error',
			message: `The token was refused by ${usWhere}: it is unknown there or was revoked. A token only works on the host of its own region: check the Region field (tokens start with their region, e.g. "us--"). Otherwise ${NEW_TOKEN}.`,
		});
	});

	it('401 on a custom URL: the Base URL is what to check', () => {
		expect(answered(401, {}, CUSTOM, 'https://fliplet.example.com').message).toBe(
			`The token was refused by the custom base URL https://fliplet.example.com: it is unknown there or was revoked. A token only works on the host of its own region (tokens start with it, e.g. "us--"): check that the Base URL is that region's host. Otherwise ${NEW_TOKEN}.`,
		);
	});

	it('403: the token is of a kind that cannot list apps', () => {
		expect(answered(403, {}, auto, US)).toEqual({
			status: 'Error',
			message: `${usWhere} accepted the token but refused to list its apps (403). Use an app, organization or user token; ${NEW_TOKEN}.`,
		});
	});

	it.each([300, 301, 302, 307, 399])('%i: a redirect, which the test does not follow', (status) => {
		expect(answered(status, {}, auto, US)).toEqual({
			status: 'Error',
			message: `${usWhere} answered with a redirect (${status}). Set the Base URL to the API's own address (e.g. https://api.fliplet.com), not an address that redirects.`,
		});
	});

	it.each([400, 404, 500, 503])('%i on a region: the API may be unavailable', (status) => {
		expect(answered(status, { apps: [] }, auto, US)).toEqual({
			status: 'Error',
			message: `${usWhere} answered ${status} to GET /v1/apps. The API may be unavailable: try again later.`,
		});
	});

	it('an error status on a custom URL: the Base URL is what to check', () => {
		expect(answered(404, {}, CUSTOM, 'https://fliplet.example.com').message).toBe(
			'the custom base URL https://fliplet.example.com answered 404 to GET /v1/apps. Check the Base URL: it is the API address, without /v1.',
		);
	});

	it('199 is not a success', () => {
		expect(answered(199, { apps: [] }, auto, US).status).toBe('Error');
	});
});
