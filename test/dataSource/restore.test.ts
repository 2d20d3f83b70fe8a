import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const restore = (dataSourceId: string, extra: Record<string, unknown> = {}) =>
	runNode({
		parameters: { resource: 'dataSource', operation: 'restore', dataSourceId },
		credentials: sandboxCredential(sandbox(), TOKENS.org),
		...extra,
	});

describe('Data Source → Restore', () => {
	it('brings a deleted data source back with its entries and versions', async () => {
		const before = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/data',
			undefined,
			TOKENS.org,
		);
		const versions = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/versions',
			undefined,
			TOKENS.org,
		);
		const deleted = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'delete',
				dataSource: { __rl: true, mode: 'id', value: '101' },
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(deleted.error).toBeUndefined();
		expect(
			(await callSandbox(sandbox(), 'GET', '/v1/data-sources/101', undefined, TOKENS.org)).status,
		).toBe(404);

		const result = await restore(' 101 ');
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			expect.objectContaining({ id: 101, name: 'Departments', organizationId: 1 }),
		]);
		const [sent] = apiRequests(sandbox(), /restore$/);
		expect([sent.method, sent.path, sent.body, sent.status]).toEqual([
			'POST',
			'/v1/data-sources/101/restore',
			undefined,
			200,
		]);
		const after = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/data',
			undefined,
			TOKENS.org,
		);
		expect(after.body.entries).toEqual(before.body.entries);
		expect(before.body.entries.length).toBeGreaterThan(0);
		const versionsAfter = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/versions',
			undefined,
			TOKENS.org,
		);
		expect(versionsAfter.body).toEqual(versions.body);
	});

	it('a data source that is not deleted gives a 404, as an error item with Continue On Fail', async () => {
		const result = await restore('101', { continueOnFail: true });
		expect(result.json).toHaveLength(1);
		expect(String(result.json[0].error)).toMatch(/404|not found|No deleted data source/i);
		expect(apiRequests(sandbox(), /restore$/)).toHaveLength(1);
	});

	it('refuses an ID that is not a whole number before sending anything', async () => {
		const result = await restore('Departments');
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/not an id/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('another organization cannot restore it', async () => {
		await callSandbox(sandbox(), 'DELETE', '/v1/data-sources/101', undefined, TOKENS.org);
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'restore', dataSourceId: '101' },
			credentials: sandboxCredential(sandbox(), TOKENS.otherOrg),
		});
		expect(result.error?.httpCode).toBe('404');
		expect(sandbox().state.dataSources.some((ds: { id: number }) => ds.id === 101)).toBe(false);
	});
});
