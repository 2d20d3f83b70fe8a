// Features the platform's own code uses beyond the public docs: its trash of deleted data sources,
// the entry count, distinct rows, joins by name, Studio's row order, and the query by GET.
import type { IDataObject } from 'n8n-workflow';
import {
	apiRequests,
	callSandbox,
	runListSearch,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };
const credentials = () => sandboxCredential(sandbox(), TOKENS.org);
/** A request to the sandbox with the organization's token. */
const asOrg = (method: string, path: string, body?: unknown) =>
	callSandbox(sandbox(), method, path, body, TOKENS.org);

async function deleteDataSource(id: number) {
	const answer = await asOrg('DELETE', `/v1/data-sources/${id}`);
	expect(answer.status).toBe(200);
}

// Studio's data source editor lists the trash at `v1/data-sources/deleted/`, with the slash
// (Fliplet/fliplet-widget-data-source: js/interface.js); a server may know only that form.
describe.each([{ deletedListPath: 'either' }, { deletedListPath: 'slashOnly' }] as const)(
	'Data Source → Get Many Deleted and Restore from the list, the trash list path read $deletedListPath',
	(reading) => {
		beforeEach(() => setSandboxReadings(sandbox(), reading));

		it('lists the deleted data sources of the organization, or of one app, with deletedAt', async () => {
			await deleteDataSource(101);
			await deleteDataSource(104);
			const all = await runNode({
				parameters: { resource: 'dataSource', operation: 'getManyDeleted', returnAll: true },
				credentials: credentials(),
			});
			expect(all.error).toBeUndefined();
			expect(all.json.map((dataSource) => [dataSource.id, dataSource.name])).toEqual([
				[101, 'Departments'],
				[104, 'Public Events'],
			]);
			expect(all.json.every((dataSource) => typeof dataSource.deletedAt === 'string')).toBe(true);
			const oneApp = await runNode({
				parameters: {
					resource: 'dataSource',
					operation: 'getManyDeleted',
					deletedScope: 'app',
					app: { __rl: true, mode: 'id', value: '11' },
					returnAll: true,
				},
				credentials: credentials(),
			});
			expect(oneApp.error).toBeUndefined();
			expect(oneApp.json.map((dataSource) => dataSource.id)).toEqual([101]);
			const requests = apiRequests(sandbox(), /deleted/);
			expect(requests.map((request) => [request.method, request.path, request.query])).toEqual([
				['GET', '/v1/data-sources/deleted/', {}],
				['GET', '/v1/data-sources/deleted/', { appId: '11' }],
			]);
		});

		it('Restore offers the deleted data sources by name and restores the one picked', async () => {
			await deleteDataSource(101);
			const found = await runListSearch({
				method: 'searchDeletedDataSources',
				filter: 'depart',
				parameters: { resource: 'dataSource', operation: 'restore' },
				credentials: credentials(),
			});
			expect(found.results).toHaveLength(1);
			expect(found.results[0]).toMatchObject({ value: '101' });
			expect(found.results[0].name).toMatch(/^Departments \(101, deleted \d{4}-\d\d-\d\d\)$/);
			const restored = await runNode({
				parameters: {
					resource: 'dataSource',
					operation: 'restore',
					dataSourceId: { __rl: true, mode: 'list', value: found.results[0].value },
				},
				credentials: credentials(),
			});
			// The list the picker read, before anything else asked for the trash.
			expect(apiRequests(sandbox(), /deleted/).map((request) => request.path)).toEqual([
				'/v1/data-sources/deleted/',
			]);
			expect(restored.error).toBeUndefined();
			expect(restored.json[0]).toMatchObject({ id: 101, name: 'Departments' });
			const listed = await asOrg('GET', '/v1/data-sources/deleted/');
			expect(listed.body.dataSources).toEqual([]);
		});
	},
);

describe('The sandbox: the trash list without its trailing slash', () => {
	it('is the same list when the path is read either way, and a data source named "deleted" when only deleted/ is the trash', async () => {
		await deleteDataSource(101);
		expect((await asOrg('GET', '/v1/data-sources/deleted')).body.dataSources).toHaveLength(1);
		setSandboxReadings(sandbox(), { deletedListPath: 'slashOnly' });
		expect((await asOrg('GET', '/v1/data-sources/deleted/')).body.dataSources).toHaveLength(1);
		const byName = await asOrg('GET', '/v1/data-sources/deleted');
		expect(byName.status).toBe(404);
		const created = await asOrg('POST', '/v1/data-sources?organizationId=1', { name: 'deleted' });
		expect(created.status).toBe(201);
		const named = await asOrg('GET', '/v1/data-sources/deleted');
		expect(named.body).toEqual({ dataSource: expect.objectContaining({ name: 'deleted' }) });
	});
});

describe('Data Source → Restore and the trash', () => {
	it('a deleted data source removed for good is gone from the list and cannot be restored', async () => {
		await deleteDataSource(101);
		const purge = await asOrg('DELETE', '/v1/data-sources/deleted/101');
		expect(purge.status).toBe(200);
		const listed = await asOrg('GET', '/v1/data-sources/deleted');
		expect(listed.body.dataSources).toEqual([]);
		expect(
			sandbox().state.versions.some((version: IDataObject) => version.dataSourceId === 101),
		).toBe(false);
		const restored = await runNode({
			parameters: { resource: 'dataSource', operation: 'restore', dataSourceId: '101' },
			credentials: credentials(),
			continueOnFail: true,
		});
		expect(String(restored.json[0].error)).toMatch(/404|not found|No deleted data source/i);
	});
});

describe('Data Source → Get with the number of entries', () => {
	it('adds entriesCount only when Include Entries Count is on', async () => {
		const count = sandbox().state.entries.filter(
			(entry: IDataObject) => entry.dataSourceId === 100,
		).length;
		const plain = await runNode({
			parameters: { resource: 'dataSource', operation: 'get', dataSource: staff },
			credentials: credentials(),
		});
		expect(plain.error).toBeUndefined();
		expect(plain.json[0]).not.toHaveProperty('entriesCount');
		const counted = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'get',
				dataSource: staff,
				options: { includeEntriesCount: true },
			},
			credentials: credentials(),
		});
		expect(counted.error).toBeUndefined();
		expect(counted.json[0]).toMatchObject({ id: 100, name: 'Staff', entriesCount: count });
		expect(count).toBeGreaterThan(0);
		const [, request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100$/);
		expect(request.query).toEqual({ includeEntriesCount: 'true' });
	});
});

describe("Entry → Get Many: distinct rows, joins by name, Studio's row order", () => {
	it('Distinct returns each combination of the chosen columns once', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: staff,
				returnAll: true,
				options: { attributes: 'Department', distinct: true },
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{ data: { Department: 'Sales' } },
			{ data: { Department: 'Engineering' } },
			{ data: { Department: 'Support' } },
		]);
		const [request] = apiRequests(sandbox(), /query$/);
		expect(request.body).toMatchObject({
			type: 'select',
			attributes: ['data.Department'],
			distinct: true,
			offset: 0,
		});
	});

	it('Distinct without Columns to Return is refused before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: staff,
				options: { distinct: true },
			},
			credentials: credentials(),
		});
		expect(result.error?.message).toBe('Distinct needs Columns to Return');
		expect(apiRequests(sandbox(), /query$/)).toHaveLength(0);
	});

	it('a join may name the joined data source instead of giving its ID', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: staff,
				queryMode: 'json',
				where: '{"Department": "Engineering"}',
				join: JSON.stringify({
					Team: { dataSourceName: 'Departments', on: { 'data.Department': 'data.Name' } },
				}),
				returnAll: true,
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(2);
		expect(result.json[0]).toMatchObject({
			joins: { Team: [{ dataSourceId: 101, data: { Name: 'Engineering' } }] },
		});
	});

	it('sorts by the row order of Fliplet Studio, the entry ID breaking ties', async () => {
		const commit = await asOrg('POST', '/v1/data-sources/100/commit', {
			entries: [
				{ id: 200, data: {}, order: 2 },
				{ id: 201, data: {}, order: 0 },
				{ id: 202, data: {}, order: 1 },
				{ id: 203, data: {}, order: 1 },
			],
			append: true,
			extend: true,
			returnEntries: false,
		});
		expect(commit.status).toBe(200);
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: staff,
				sort: { property: [{ column: '$order', direction: 'ASC' }] },
				returnAll: true,
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((entry) => [entry.id, entry.order])).toEqual([
			[201, 0],
			[202, 1],
			[203, 1],
			[200, 2],
			[204, undefined],
		]);
		const [request] = apiRequests(sandbox(), /query$/);
		expect(request.body.order).toEqual([
			['order', 'ASC'],
			['id', 'ASC'],
		]);
	});
});

describe("sandbox: what the platform's own tools send", () => {
	it('creates a data source with its app or organization in the JSON body', async () => {
		const inApp = await asOrg('POST', '/v1/data-sources', { name: 'Body App', appId: 11 });
		expect(inApp.status).toBe(201);
		expect(inApp.body.dataSource).toMatchObject({ name: 'Body App', appId: 11, organizationId: 1 });
		const inOrg = await asOrg('POST', '/v1/data-sources', { name: 'Body Org', organizationId: 1 });
		expect(inOrg.body.dataSource).toMatchObject({ appId: null, organizationId: 1 });
		const neither = await asOrg('POST', '/v1/data-sources', { name: 'X' });
		expect(neither.status).toBe(400);
	});

	it('answers a query sent by GET with its options in the query string', async () => {
		const where = encodeURIComponent(JSON.stringify({ Department: 'Sales' }));
		const order = encodeURIComponent(JSON.stringify([['id', 'DESC']]));
		const answer = await asOrg(
			'GET',
			`/v1/data-sources/100/data/query?where=${where}&order=${order}&limit=1&includePagination=true`,
		);
		expect(answer.status).toBe(200);
		expect(answer.body.entries).toHaveLength(1);
		expect(answer.body.entries[0].data.Department).toBe('Sales');
		expect(answer.body.pagination).toMatchObject({ total: 2, limit: 1, offset: 0 });
		const bad = await asOrg('GET', '/v1/data-sources/100/data/query?where={nope');
		expect(bad.status).toBe(400);
		const deleting = await asOrg('GET', '/v1/data-sources/100/data/query?type=delete');
		expect(deleting.status).toBe(400);
	});
});
