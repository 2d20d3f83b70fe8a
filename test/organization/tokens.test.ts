import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const org = { __rl: true, mode: 'id', value: '1' };

function tokenOperation(
	operation: string,
	parameters: Record<string, unknown> = {},
	token = TOKENS.org,
) {
	return runNode({
		parameters: {
			resource: 'organizationToken',
			operation,
			organization: org,
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox(), token),
	});
}

function listApps(token: string) {
	return runNode({
		parameters: { resource: 'app', operation: 'getMany', returnAll: true },
		credentials: sandboxCredential(sandbox(), token),
	});
}

describe('Organization Token', () => {
	it('creates a token once, whose secret works for later requests', async () => {
		const created = await tokenOperation('create', { name: 'Reporting integration' });
		expect(created.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /\/tokens$/);
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].path).toBe('/v1/organizations/1/tokens');
		expect(requests[0].body).toEqual({ name: 'Reporting integration' });
		const [token] = created.json as Array<{ token: string }>;
		expect(token).toEqual({
			organizationId: 1,
			token: expect.stringMatching(/^eu--/),
			id: expect.any(Number),
			name: 'Reporting integration',
		});
		const apps = await listApps(token.token);
		expect(apps.error).toBeUndefined();
		expect(apps.json.map((app) => app.id)).toEqual([10, 20]);
	});

	it('is not re-sent after a server failure (the token may exist already)', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 502, path: '/tokens$' });
		const result = await tokenOperation('create', { name: 'Once only' });
		expect(result.error?.message).toMatch(/after processing|502/);
		expect(result.error?.description).toMatch(/not sent again/);
		expect(apiRequests(sandbox(), /\/tokens$/)).toHaveLength(1);
	});

	it('refuses an empty name before any request', async () => {
		const result = await tokenOperation('create', { name: '  ' });
		expect(result.error?.message).toBe('The token needs a name');
		expect(apiRequests(sandbox(), /\/tokens/)).toHaveLength(0);
	});

	it('lists the tokens of the organization, up to the limit', async () => {
		const all = await tokenOperation('getMany', { returnAll: true });
		expect(all.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/tokens$/)[0]).toEqual(
			expect.objectContaining({ method: 'GET', path: '/v1/organizations/1/tokens' }),
		);
		expect(all.json.map((entry) => entry.fullName)).toEqual(['Sandbox org token', 'US token']);
		expect(all.json[0]).toEqual(
			expect.objectContaining({
				id: 101,
				type: 'integrationToken',
				lastName: null,
				organizationUser: expect.objectContaining({ organizationId: 1 }),
			}),
		);
		const one = await tokenOperation('getMany', { returnAll: false, limit: 1 });
		expect(one.json).toHaveLength(1);
	});

	it('deletes a token, which then stops working', async () => {
		const created = await tokenOperation('create', { name: 'Short lived' });
		const { token, id } = created.json[0] as { token: string; id: number };
		const deleted = await tokenOperation('delete', {
			token: { __rl: true, mode: 'list', value: String(id) },
		});
		expect(deleted.error).toBeUndefined();
		expect(deleted.json).toEqual([{ deleted: true, organizationId: 1, id }]);
		const [request] = apiRequests(sandbox(), /\/tokens\/\d+$/);
		expect(request).toEqual(
			expect.objectContaining({ method: 'DELETE', path: `/v1/organizations/1/tokens/${id}` }),
		);
		const apps = await listApps(token);
		expect(apps.error?.message).toBe('The token is not valid or was revoked');
		const listed = await tokenOperation('getMany', { returnAll: true });
		expect(listed.json.map((entry) => entry.id)).not.toContain(id);
	});

	it('refuses a token secret given as the id', async () => {
		const result = await tokenOperation('delete', {
			token: { __rl: true, mode: 'list', value: 'eu--abc' },
		});
		expect(result.error?.message).toMatch(/"eu--abc" is not an id/);
		expect(result.error?.description).toMatch(/not the secret/);
		expect(apiRequests(sandbox(), /\/tokens/)).toHaveLength(0);
	});
});
