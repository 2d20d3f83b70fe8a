import {
	apiRequests,
	createSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

describe('User resource', () => {
	it('Get returns the user the token belongs to, once per item, paired', async () => {
		const result = await runNode({
			parameters: { resource: 'user', operation: 'get' },
			input: [{ json: { n: 1 } }, { json: { n: 2 } }],
			credentials: sandboxCredential(sandbox(), TOKENS.studio),
		});
		expect(result.error).toBeUndefined();
		const sandy = {
			id: 1,
			firstName: 'Sandy',
			lastName: 'Box',
			fullName: 'Sandy Box',
			email: 'sandy@example.com',
			organizationId: 1,
			// The API host of the user's region, answered beside the user.
			host: 'https://api.fliplet.com/',
		};
		expect(result.json).toEqual([sandy, sandy]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const sent = apiRequests(sandbox());
		expect(sent.map((r) => [r.method, r.path, r.headers['auth-token'], r.status])).toEqual([
			['GET', '/v1/user', TOKENS.studio, 200],
			['GET', '/v1/user', TOKENS.studio, 200],
		]);
	});

	it('Get with an organization token returns the token user', async () => {
		const result = await runNode({
			parameters: { resource: 'user', operation: 'get' },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.json).toEqual([
			{
				id: 101,
				fullName: 'Sandbox org token',
				firstName: 'Sandbox org token',
				lastName: null,
				email: 'token-101@tokens.example.com',
				host: 'https://api.fliplet.com/',
			},
		]);
	});

	it("names the API host of a US user's region", async () => {
		const us = createSandbox({ region: 'us' });
		await us.start();
		try {
			const result = await runNode({
				parameters: { resource: 'user', operation: 'get' },
				credentials: sandboxCredential(us, TOKENS.us),
			});
			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ id: 104, host: 'https://us.api.fliplet.com/' });
		} finally {
			await us.stop();
		}
	});

	it('a revoked token fails with the platform 401, or becomes an error item with Continue On Fail', async () => {
		const credentials = sandboxCredential(sandbox(), 'eu--revoked-token');
		const failed = await runNode({
			parameters: { resource: 'user', operation: 'get' },
			credentials,
		});
		expect(failed.status).toBe('error');
		expect(failed.error?.httpCode).toBe('401');
		const continued = await runNode({
			parameters: { resource: 'user', operation: 'get' },
			credentials,
			continueOnFail: true,
		});
		expect(continued.json).toHaveLength(1);
		expect(String(continued.json[0].error)).toMatch(/not valid|revoked|authori/i);
	});
});
