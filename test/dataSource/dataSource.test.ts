/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const id = (value: string) => ({ __rl: true, mode: 'id', value });
const byName = (value: string) => ({ __rl: true, mode: 'name', value });
const app11 = { __rl: true, mode: 'id', value: '11' };

describe('Data Source resource', () => {
	it('Get Many lists the data sources of an app, up to the limit', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'getMany',
				scope: 'app',
				app: app11,
				limit: 2,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((ds) => ds.name)).toEqual(['Staff', 'Departments']);
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request.query).toEqual({ appId: '11' });
	});

	it('Get Many of an organization with a type filter', async () => {
		sandbox().state.dataSources.find((ds: any) => ds.id === 101).type = 'lookup';
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'getMany',
				scope: 'organization',
				organizationId: '1',
				type: 'lookup',
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((ds) => ds.name)).toEqual(['Departments']);
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request.query).toEqual({ organizationId: '1', type: 'lookup' });
	});

	it('refuses an organization ID that is not a number before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'getMany',
				scope: 'organization',
				organizationId: 'acme',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toMatch(/Organization: "acme" is not an id/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('Get by ID and by name', async () => {
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: byName('Staff') },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.json[0]).toMatchObject({ id: 100, name: 'Staff', organizationId: 1 });
		expect(result.json[0].columns).toContain('Email');
		const second = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: id('105') },
			credentials: sandboxCredential(sandbox(), TOKENS.otherOrg),
		});
		expect(second.json[0]).toMatchObject({ id: 105, name: 'Partner Data' });
		expect(apiRequests(sandbox(), /^\/v1\/data-sources/).map((r) => r.path)).toEqual([
			'/v1/data-sources/Staff',
			'/v1/data-sources/105',
		]);
	});

	it('Get by an all-digit name sends ?dsn, so "2024" is not read as ID 2024', async () => {
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: byName('2024') },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ id: 102, name: '2024' });
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources/);
		expect(request).toMatchObject({ path: '/v1/data-sources/2024', query: { dsn: 'true' } });
	});

	it('refuses a non-numeric ID given "By ID" before any request', async () => {
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: id('={{ $json.ds }}') },
			input: [{ json: { ds: 'Staff' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toMatch(/is not an ID/);
		expect(result.error?.description).toMatch(/By Name/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('a public data source of another organization is readable with any token', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: id('104'),
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox(), TOKENS.otherOrg),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			expect.objectContaining({
				id: expect.any(Number),
				data: expect.objectContaining({ Title: 'Open day' }),
			}),
		]);
		const denied = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: id('100') },
			credentials: sandboxCredential(sandbox(), TOKENS.otherOrg),
		});
		expect(denied.error?.httpCode).toBe('404');
	});

	it('a security-rule denial becomes a clear error telling how to grant the permission', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: byName('Restricted'),
				columns: { mappingMode: 'defineBelow', value: { Secret: 'x' } },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toBe(
			'The security rules for the Data Source "Restricted" do not allow this app to insert data.',
		);
		expect(result.error?.description).toMatch(/Security rules/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), /Restricted\/data$/)).toHaveLength(1);
	});

	it('with Continue On Fail a denial becomes an error item and the next item still runs', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'get',
				dataSource: byName('={{ $json.ds }}'),
				entryId: '={{ $json.entry }}',
			},
			input: [{ json: { ds: 'Restricted', entry: 209 } }, { json: { ds: 'Staff', entry: 200 } }],
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(/do not allow this app to read data/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[1].json).toMatchObject({ id: 200, data: { Name: 'Alice Martin' } });
	});

	it('Create under an app and under an organization', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'create',
				scope: 'app',
				app: app11,
				name: 'Visitors',
				type: 'log',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			name: 'Visitors',
			type: 'log',
			appId: 11,
			hooks: [],
			public: false,
		});
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request).toMatchObject({
			method: 'POST',
			query: { appId: '11' },
			body: { name: 'Visitors', type: 'log' },
		});

		const org = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'create',
				scope: 'organization',
				organizationId: '1',
				name: 'Shared',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(org.json[0]).toMatchObject({ name: 'Shared', appId: null, organizationId: 1 });
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)[1].body).toEqual({ name: 'Shared' });
	});

	it('Update renames and sets the columns', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'update',
				dataSource: id('101'),
				updateFields: { name: 'Teams', columns: 'Name, Floor, Lead' },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			id: 101,
			name: 'Teams',
			columns: ['Name', 'Floor', 'Lead'],
		});
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/101$/);
		expect(request).toMatchObject({
			method: 'PUT',
			body: { name: 'Teams', columns: ['Name', 'Floor', 'Lead'] },
		});
	});

	it('Update with nothing to change is refused before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'update',
				dataSource: id('101'),
				updateFields: {},
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Nothing to update');
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('Delete removes the data source and its entries', async () => {
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'delete', dataSource: id('101') },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ deleted: true, dataSource: '101' }]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/101$/)[0].method).toBe('DELETE');
		expect(sandbox().state.dataSources.some((ds: any) => ds.id === 101)).toBe(false);
		expect(sandbox().state.entries.some((entry: any) => entry.dataSourceId === 101)).toBe(false);
	});

	it('a data source named "a/b?c" works through create, insert, query, get, update and delete', async () => {
		const credentials = sandboxCredential(sandbox());
		const ds = byName('a/b?c');
		const run = async (parameters: Record<string, unknown>) => {
			const result = await runNode({ parameters: parameters as never, credentials });
			expect(result.error).toBeUndefined();
			return result;
		};
		await run({
			resource: 'dataSource',
			operation: 'create',
			scope: 'app',
			app: app11,
			name: 'a/b?c',
		});
		const inserted = await run({
			resource: 'entry',
			operation: 'insert',
			dataSource: ds,
			columns: { mappingMode: 'defineBelow', value: { Name: 'slash' } },
		});
		const entryId = String(inserted.json[0].id);
		const found = await run({
			resource: 'entry',
			operation: 'getMany',
			dataSource: ds,
			returnAll: true,
		});
		expect(found.json).toEqual([
			expect.objectContaining({ id: Number(entryId), data: { Name: 'slash' } }),
		]);
		await run({ resource: 'entry', operation: 'get', dataSource: ds, entryId });
		await run({
			resource: 'dataSource',
			operation: 'update',
			dataSource: ds,
			updateFields: { columns: 'Name' },
		});
		await run({ resource: 'dataSource', operation: 'delete', dataSource: ds });
		const paths = apiRequests(sandbox(), /^\/v1\/data-sources\//).map(
			(r) => `${r.method} ${r.path}`,
		);
		expect(paths).toEqual([
			'PUT /v1/data-sources/a%2Fb%3Fc/data',
			'POST /v1/data-sources/a%2Fb%3Fc/data/query',
			`GET /v1/data-sources/a%2Fb%3Fc/data/${entryId}`,
			'PUT /v1/data-sources/a%2Fb%3Fc',
			'DELETE /v1/data-sources/a%2Fb%3Fc',
		]);
		expect(sandbox().state.dataSources.some((d: any) => d.name === 'a/b?c')).toBe(false);
	});
});
