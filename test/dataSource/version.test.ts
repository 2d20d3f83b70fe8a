/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };
const credentials = () => sandboxCredential(sandbox());
const staffNames = () =>
	sandbox()
		.state.entries.filter((entry: any) => entry.dataSourceId === 100)
		.map((entry: any) => entry.data.Name);

async function deleteEntry(entryId: string) {
	const result = await runNode({
		parameters: { resource: 'entry', operation: 'delete', dataSource: staff, entryId },
		credentials: credentials(),
	});
	expect(result.error).toBeUndefined();
}

describe('Data Source Version resource', () => {
	it('Get Many lists a version per change, with action, columns and entry count', async () => {
		await deleteEntry('204');
		const result = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'getMany',
				dataSource: staff,
				returnAll: true,
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(
			result.json.map((version: any) => [version.data.action, version.data.entries.count]),
		).toEqual([
			['commit', 4],
			['snapshot', 5],
		]);
		expect(result.json[0]).toMatchObject({ dataSourceId: 100, userId: 102, user: { id: 102 } });
		expect(apiRequests(sandbox(), /versions$/)[0]).toMatchObject({
			method: 'GET',
			path: '/v1/data-sources/100/versions',
		});
	});

	it('Get Many with Limit 1 gives the newest version (the platform lists newest first)', async () => {
		await deleteEntry('204');
		await deleteEntry('203');
		const result = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'getMany',
				dataSource: staff,
				returnAll: false,
				limit: 1,
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({ data: { action: 'commit', entries: { count: 3 } } });
		const newest = Math.max(
			...sandbox()
				.state.versions.filter((version: any) => version.dataSourceId === 100)
				.map((version: any) => version.id),
		);
		expect(result.json[0].id).toBe(newest);
	});

	it('Get Entries reads a version with a limit (GET) or a where filter (POST)', async () => {
		const versionId = String(sandbox().state.versions[0].id);
		const plain = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'getEntries',
				dataSource: staff,
				versionId,
				limit: 2,
			},
			credentials: credentials(),
		});
		expect(plain.error).toBeUndefined();
		expect(plain.json.map((entry) => (entry.data as { Name: string }).Name)).toEqual([
			'Alice Martin',
			'Bob Stone',
		]);
		const filtered = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'getEntries',
				dataSource: staff,
				versionId,
				where: '{"Department": "Sales"}',
				returnAll: true,
			},
			credentials: credentials(),
		});
		expect(filtered.error).toBeUndefined();
		expect(filtered.json.map((entry: any) => [entry.data.Name, entry.order])).toEqual([
			['Alice Martin', 0],
			['Carla Diaz', 2],
		]);
		const requests = apiRequests(sandbox(), /\/data$/);
		expect(requests[0]).toMatchObject({ method: 'GET', query: { limit: '2' } });
		expect(requests[1]).toMatchObject({ method: 'POST', body: { where: { Department: 'Sales' } } });
	});

	it('Restore brings back the content of a version', async () => {
		const versionId = String(sandbox().state.versions[0].id);
		await deleteEntry('200');
		await deleteEntry('201');
		expect(staffNames()).toHaveLength(3);
		const result = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'restore',
				dataSource: staff,
				versionId,
			},
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ restored: true, versionId: Number(versionId) }]);
		const [request] = apiRequests(sandbox(), /restore$/);
		expect(request).toMatchObject({
			method: 'POST',
			path: `/v1/data-sources/100/versions/${versionId}/restore`,
		});
		expect(staffNames()).toEqual([
			'Alice Martin',
			'Bob Stone',
			'Carla Diaz',
			'Dan Wu',
			'Eve Adams',
		]);
		const actions = sandbox().state.versions.map((version: any) => version.data.action);
		expect(actions[actions.length - 1]).toBe('pre-restore');
	});

	it('refuses a version ID that is not a number before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSourceVersion',
				operation: 'restore',
				dataSource: staff,
				versionId: 'latest',
			},
			credentials: credentials(),
		});
		expect(result.error?.message).toMatch(/Version ID: "latest" is not an id/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});
});
