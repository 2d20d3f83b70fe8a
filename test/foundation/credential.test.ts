import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import { resolveBaseUrl, type FlipletCredentialData } from '../../nodes/Fliplet/transport/baseUrl';
import {
	apiRequests,
	callSandbox,
	createSandbox,
	packageNodeTypes,
	runNode,
	sandboxCredential,
	testCredential,
	TOKENS,
	useSandbox,
	type Sandbox,
} from '../harness';

const sandbox = useSandbox();
const credentialType = new FlipletApi();

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

/** A sandbox on another loopback address, which the credential must treat as a remote host. */
function useRemoteSandbox(): () => Sandbox {
	let remote: Sandbox | undefined;
	beforeAll(async () => {
		remote = createSandbox();
		await remote.start(0, '127.0.0.2');
	});
	afterAll(async () => {
		await remote?.stop();
	});
	return () => remote!;
}

describe('credential on the wire', () => {
	const remoteSandbox = useRemoteSandbox();
	let remote: Sandbox;

	beforeEach(() => {
		remote = remoteSandbox();
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
		const response = await callSandbox(remote, 'GET', '/v1/apps', undefined, TOKENS.org);
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
	const remote = useRemoteSandbox();
	const testBaseUrl = (baseUrl: string) =>
		testCredential('flipletApi', { accessToken: TOKENS.app, region: 'custom', baseUrl });

	it('is a node-level test on every node of the package, since the credential has no request test', async () => {
		expect(credentialType).not.toHaveProperty('test');
		const nodes = await packageNodeTypes();
		expect(nodes.length).toBeGreaterThanOrEqual(2);
		for (const node of nodes) {
			const entry = node.description.credentials?.find(({ name }) => name === 'flipletApi');
			expect({ node: node.description.name, testedBy: entry?.testedBy }).toEqual({
				node: node.description.name,
				testedBy: 'flipletApiTest',
			});
			expect(typeof node.methods?.credentialTest?.flipletApiTest).toBe('function');
		}
	});

	it('succeeds with a valid token, sending only the Auth-token header to GET /v1/apps', async () => {
		const outcome = await testCredential(
			'flipletApi',
			sandboxCredential(sandbox(), ` ${TOKENS.app}\n`).flipletApi,
		);
		expect(outcome).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = apiRequests(sandbox());
		expect(request.method).toBe('GET');
		expect(request.path).toBe('/v1/apps');
		expect(request.headers['auth-token']).toBe(TOKENS.app);
		expect(request.headers).not.toHaveProperty('authorization');
		expect(request.query).toEqual({});
	});

	it('a revoked token: says it was refused, by which host, and how to get a new one', async () => {
		sandbox().state.tokens.delete(TOKENS.org);
		const outcome = await testCredential(
			'flipletApi',
			sandboxCredential(sandbox(), TOKENS.org).flipletApi,
		);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			new RegExp(
				`^The token was refused by the custom base URL ${escape(sandbox().url)}: it is unknown there or was revoked`,
			),
		);
		expect(outcome.message).toMatch(/create a token in Fliplet Studio/);
		expect(outcome.message).not.toContain(TOKENS.org);
		expect(apiRequests(sandbox())[0].status).toBe(401);
	});

	it('a token of another region: the message points at the region of the host', async () => {
		const port = new URL(sandbox().url).port;
		// Region "Auto" would pick the real US host; a custom URL plays the EU host here.
		const outcome = await testCredential('flipletApi', {
			accessToken: TOKENS.us,
			region: 'custom',
			baseUrl: `http://localhost:${port}`,
		});
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/was refused by/);
		expect(outcome.message).toMatch(/check that the Base URL is that region's host/);
		expect(apiRequests(sandbox())[0].status).toBe(401);
	});

	it('an unreachable host: names the host and says to check the Base URL or pick a region', async () => {
		const outcome = await testBaseUrl('https://api.fliplet-sandbox.invalid');
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			/^The host api\.fliplet-sandbox\.invalid could not be found \((ENOTFOUND|EAI_AGAIN)\)\. Check the Base URL for typos, or pick your region/,
		);
	});

	it('a closed port: says nothing accepts connections there', async () => {
		const outcome = await testBaseUrl('http://127.0.0.1:9');
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			/^Nothing accepts connections at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)\. Check the port/,
		);
	});

	it('plain http to a remote host: refused with the fix, and the token is never sent', async () => {
		const outcome = await testBaseUrl(remote().url);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/^The custom base URL must start with https:\/\//);
		expect(outcome.message).toMatch(
			/Pick your region .* or give an https:\/\/ base URL\. The token was not sent\./,
		);
		expect(remote().requests).toHaveLength(0);
	});

	it('an address that is not the Fliplet API (a 404) says to check the Base URL', async () => {
		const outcome = await testBaseUrl(`${sandbox().url}/v1`);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			/answered 404 to GET \/v1\/apps\. Check the Base URL: it is the API address, without \/v1\./,
		);
	});

	it('an empty token is refused before anything is sent', async () => {
		const outcome = await testCredential('flipletApi', {
			...sandboxCredential(sandbox(), '  ').flipletApi,
		});
		expect(outcome).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The API token is empty/),
		});
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('a credential saved without a token is refused the same way', async () => {
		const withoutToken: Record<string, unknown> = { ...sandboxCredential(sandbox()).flipletApi };
		delete withoutToken.accessToken;
		const outcome = await testCredential('flipletApi', withoutToken as never);
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/^The API token is empty/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
