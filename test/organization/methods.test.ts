import type { INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { apiRequests, runListSearch, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();

/**
 * A list search as the editor runs it for a field that depends on another: the parameters of the
 * node being edited are its `currentNodeParameters`.
 */
async function searchWithParameters(
	method: string,
	parameters: INodeParameters,
): Promise<INodeListSearchResult> {
	return await runListSearch({
		method,
		parameters,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
		path: 'parameters.token',
		editing: true,
	});
}

describe('Organization pickers', () => {
	it("lists the organizations of the token's user (GET /v1/organizations), and filters them", async () => {
		const result = await runListSearch({
			method: 'searchOrganizations',
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.results).toEqual([{ name: 'Acme Sandbox (1)', value: '1' }]);
		expect(apiRequests(sandbox()).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /v1/organizations',
		]);
		const other = await runListSearch({
			method: 'searchOrganizations',
			credentials: sandboxCredential(sandbox(), TOKENS.otherOrg),
		});
		expect(other.results).toEqual([{ name: 'Other Org (2)', value: '2' }]);
		const none = await runListSearch({
			method: 'searchOrganizations',
			filter: 'other',
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(none.results).toEqual([]);
	});

	it('a refused token still gets 401, not a list', async () => {
		await expect(
			runListSearch({
				method: 'searchOrganizations',
				credentials: sandboxCredential(sandbox(), 'eu--revoked-token'),
			}),
		).rejects.toMatchObject({ httpCode: '401' });
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual(['/v1/organizations']);
	});

	it('when the organization list is refused, derives organizations from the apps, named after a few of them', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 404,
			path: '^/v1/organizations$',
			body: { message: 'Not found' },
		});
		const base = sandbox().state.apps[0];
		for (let n = 1; n <= 40; n++) {
			sandbox().state.apps.push({
				...base,
				id: 1000 + n,
				productionAppId: 2000 + n,
				name: `Site ${n}`,
			});
		}
		const result = await runListSearch({
			method: 'searchOrganizations',
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.results).toEqual([
			{
				name: 'Organization 1 (Staff Directory, Field Reports, Site 1 and 39 more apps)',
				value: '1',
			},
		]);
		expect(apiRequests(sandbox()).map((r) => `${r.path} ${r.status}`)).toEqual([
			'/v1/organizations 404',
			'/v1/apps 200',
		]);
	});

	it('lists the tokens of the organization chosen in the node', async () => {
		const result = await searchWithParameters('searchOrganizationTokens', {
			resource: 'organizationToken',
			operation: 'delete',
			organization: { __rl: true, mode: 'id', value: '1' },
		});
		expect(result.results).toEqual([
			{ name: 'Sandbox org token (101)', value: '101' },
			{ name: 'US token (104)', value: '104' },
		]);
		expect(apiRequests(sandbox(), /tokens$/)[0].path).toBe('/v1/organizations/1/tokens');
	});

	it('offers no tokens until an organization is chosen', async () => {
		const result = await searchWithParameters('searchOrganizationTokens', {
			resource: 'organizationToken',
			operation: 'delete',
		});
		expect(result.results).toEqual([]);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
