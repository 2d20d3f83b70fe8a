import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import { resolveBaseUrl, type FlipletCredentialData } from '../../nodes/Fliplet/transport/baseUrl';
import {
	apiRequests,
	createSandbox,
	resolveCredentialExpression,
	runNode,
	sandboxCredential,
	testCredential,
	TOKENS,
	useSandbox,
	type Sandbox,
} from '../harness';

const sandbox = useSandbox();
const credentialType = new FlipletApi();
const testBaseUrl = credentialType.test.request.baseURL as string;

const getManyApps = { resource: 'app', operation: 'getMany', returnAll: true };

describe('resolveBaseUrl', () => {
	it.each([
		[{ region: 'eu', accessToken: 'us--abc' }, 'https://api.fliplet.com'],
		[{ region: 'us', accessToken: 'eu--abc' }, 'https://us.api.fliplet.com'],
		[{ region: 'ca', accessToken: 'eu--abc' }, 'https://ca.api.fliplet.com'],
		[{ region: 'auto', accessToken: 'eu--abc' }, 'https://api.fliplet.com'],
		[{ region: 'auto', accessToken: 'us--abc' }, 'https://us.api.fliplet.com'],
		[{ region: 'auto', accessToken: 'ca--abc' }, 'https://ca.api.fliplet.com'],
		[{ region: 'auto', accessToken: 'CA--abc' }, 'https://ca.api.fliplet.com'],
		[{ region: 'auto', accessToken: 'abc-without-prefix' }, 'https://api.fliplet.com'],
		[{ region: 'auto', accessToken: '  us--abc\n' }, 'https://us.api.fliplet.com'],
		[{ accessToken: 'us--abc' }, 'https://us.api.fliplet.com'],
	] as Array<[FlipletCredentialData, string]>)('%j resolves to %s', (credentials, host) => {
		expect(resolveBaseUrl(credentials)).toEqual({ url: host });
	});

	it.each([
		['http://example.com', /must start with https:\/\//],
		['http://127.0.0.2:8080', /must start with https:\/\//],
		['http://localhost.example.com', /must start with https:\/\//],
		['http://127.0.0.1@evil.example.com', /must start with https:\/\//],
		['', /none is set/],
		['https://exa mple.com', /not a valid address/],
	])('refuses the custom base URL %j', (baseUrl, error) => {
		const result = resolveBaseUrl({ region: 'custom', baseUrl, accessToken: 'eu--abc' });
		expect(result).toEqual({ error: expect.stringMatching(error) });
	});
});

describe('credential test request baseURL (n8n expression engine)', () => {
	const table: FlipletCredentialData[] = [
		{ region: 'auto', accessToken: 'eu--t' },
		{ region: 'auto', accessToken: 'us--t' },
		{ region: 'auto', accessToken: 'ca--t' },
		{ region: 'auto', accessToken: 'Us--t' },
		{ region: 'auto', accessToken: '  ca--pasted-with-spaces\n' },
		{ region: 'auto', accessToken: 'no-prefix' },
		{ region: 'auto', accessToken: '' },
		{ region: 'eu', accessToken: 'ca--t' },
		{ region: 'us', accessToken: 'eu--t' },
		{ region: 'ca', accessToken: 'us--t' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: 'https://api.example.com/' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: '  https://api.example.com/base//  ' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: 'http://127.0.0.1:4010' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: 'http://localhost:4010/' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: 'HTTP://LOCALHOST' },
		{ region: 'custom', accessToken: 'eu--t', baseUrl: 'http://[::1]:4010' },
	];

	it.each(table)('%j gives the same host as resolveBaseUrl', (credentials) => {
		const resolved = resolveBaseUrl(credentials);
		expect(resolved).toHaveProperty('url');
		const evaluated = resolveCredentialExpression(
			testBaseUrl,
			credentials as ICredentialDataDecryptedObject,
		);
		expect(evaluated).toBe((resolved as { url: string }).url);
	});

	it.each([
		'http://api.example.com',
		'http://127.0.0.2:4010',
		'http://localhost.example.com',
		'http://localhost:80@evil.example.com',
		'ftp://api.example.com',
		'',
	])('an unsafe custom URL %j resolves to a .invalid host', (baseUrl) => {
		const credentials = { region: 'custom', accessToken: 'eu--t', baseUrl };
		expect(resolveBaseUrl(credentials as FlipletCredentialData)).toHaveProperty('error');
		const evaluated = String(resolveCredentialExpression(testBaseUrl, credentials));
		expect(new URL(evaluated).hostname).toMatch(/\.invalid$/);
	});
});

describe('credential on the wire', () => {
	let remote: Sandbox;

	beforeAll(async () => {
		// Listens on another loopback address, which the credential must treat as a remote host.
		remote = createSandbox();
		await remote.start(0, '127.0.0.2');
	});

	afterAll(async () => {
		await remote.stop();
	});

	it('refuses plain http to a remote host before sending anything', async () => {
		const result = await runNode({
			parameters: getManyApps,
			credentials: {
				flipletApi: { accessToken: TOKENS.org, region: 'custom', baseUrl: remote.url },
			},
		});
		expect(result.status).toBe('error');
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.error?.message).toMatch(/must start with https:\/\//);
		expect(result.error?.description).toMatch(/https:\/\/ base URL/);
		expect(remote.requests).toHaveLength(0);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('the remote-looking server is reachable, so the refusal above is what kept it silent', async () => {
		const response = await fetch(`${remote.url}/v1/apps`, {
			headers: { 'Auth-token': TOKENS.org },
		});
		expect(response.status).toBe(200);
		expect(remote.requests).toHaveLength(1);
	});

	it('accepts http://localhost:<port>', async () => {
		const port = new URL(sandbox().url).port;
		const result = await runNode({
			parameters: getManyApps,
			credentials: {
				flipletApi: {
					accessToken: TOKENS.org,
					region: 'custom',
					baseUrl: `http://localhost:${port}/`,
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		expect(apiRequests(sandbox(), /^\/v1\/apps$/)).toHaveLength(1);
	});

	it('sends exactly one auth header: Auth-token with the raw token, never in the query', async () => {
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.status).toBe('success');
		const [request] = apiRequests(sandbox());
		expect(request.headers['auth-token']).toBe(TOKENS.org);
		expect(request.headers).not.toHaveProperty('authorization');
		expect(request.headers).not.toHaveProperty('cookie');
		const tokenHeaders = Object.entries(request.headers).filter(([, value]) =>
			String(value).includes(TOKENS.org),
		);
		expect(tokenHeaders.map(([name]) => name)).toEqual(['auth-token']);
		expect(JSON.stringify(request.query)).not.toContain(TOKENS.org);
		expect(request.query).toEqual({});
	});

	it('trims a token pasted with spaces or a newline before sending it', async () => {
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), ` ${TOKENS.org}\n`),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox())[0].headers['auth-token']).toBe(TOKENS.org);
	});

	it('a token of another region is refused with 401', async () => {
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.us),
		});
		expect(result.error?.message).toBe('The token is not valid or was revoked');
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.description).toMatch(/region/);
	});
});

describe('credential test (as n8n runs it)', () => {
	it('succeeds with a valid token, sending only the Auth-token header', async () => {
		const outcome = await testCredential(
			'flipletApi',
			sandboxCredential(sandbox(), TOKENS.app).flipletApi,
		);
		expect(outcome.status).toBe('OK');
		const [request] = apiRequests(sandbox());
		expect(request.method).toBe('GET');
		expect(request.path).toBe('/v1/apps');
		expect(request.headers['auth-token']).toBe(TOKENS.app);
		expect(request.headers).not.toHaveProperty('authorization');
	});

	it.each([
		['an unknown token', 'eu--not-a-real-token'],
		['a token of another region', TOKENS.us],
	])('turns the 401 of %s into the rule message', async (_label, token) => {
		const outcome = await testCredential(
			'flipletApi',
			sandboxCredential(sandbox(), token).flipletApi,
		);
		expect(outcome).toEqual(
			expect.objectContaining({
				status: 'Error',
				message: 'The token is not valid or was revoked',
			}),
		);
		expect(apiRequests(sandbox())[0].status).toBe(401);
	});

	it('turns the 401 of a revoked token into the rule message', async () => {
		sandbox().state.tokens.delete(TOKENS.org);
		const outcome = await testCredential(
			'flipletApi',
			sandboxCredential(sandbox(), TOKENS.org).flipletApi,
		);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toBe('The token is not valid or was revoked');
	});
});
