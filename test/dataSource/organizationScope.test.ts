import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();

describe('Data Source → Get Many in an organization (organization locator)', () => {
	it.each(['list', 'id'])('reads the organization picked in "%s" mode', async (mode) => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'getMany',
				scope: 'organization',
				organizationId: { __rl: true, mode, value: '1' },
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request.query).toEqual({ organizationId: '1' });
		const expected = sandbox()
			.state.dataSources.filter((ds: IDataObject) => ds.organizationId === 1)
			.map((ds: IDataObject) => ds.id);
		expect(result.json.map((ds) => ds.id)).toEqual(expected);
		expect(expected.length).toBeGreaterThan(0);
	});

	it('refuses an organization that is not an id before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'create',
				scope: 'organization',
				organizationId: { __rl: true, mode: 'id', value: '={{ "acme" }}' },
				name: 'New',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe('Organization: "acme" is not an id');
		expect(result.error?.description).toMatch(/Pick the organization from the list/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});
});
