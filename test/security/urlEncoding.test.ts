import type { INodeParameters } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();

const APP = { __rl: true, mode: 'id', value: '11' };
const NAMES = ['a/b?c', 'Q&A #1', '50% off', '../apps', 'x=1&y=2'];

function run(parameters: INodeParameters) {
	return runNode({ parameters, credentials: sandboxCredential(sandbox()) });
}

describe('path and query values are URL-encoded', () => {
	it.each(NAMES)('a data source named %j is created, written and read by name', async (name) => {
		const created = await run({
			resource: 'dataSource',
			operation: 'create',
			scope: 'app',
			app: APP,
			name,
		});
		expect(created.error).toBeUndefined();
		expect(created.json[0]).toMatchObject({ name });

		const byName = { __rl: true, mode: 'name', value: name };
		const inserted = await run({
			resource: 'entry',
			operation: 'insert',
			dataSource: byName,
			columns: { mappingMode: 'defineBelow', value: { Title: 'Hello' } },
		});
		expect(inserted.error).toBeUndefined();
		const read = await run({
			resource: 'entry',
			operation: 'getMany',
			dataSource: byName,
			returnAll: true,
		});
		expect(read.error).toBeUndefined();
		expect(read.json).toEqual([expect.objectContaining({ data: { Title: 'Hello' } })]);

		const encoded = `/v1/data-sources/${encodeURIComponent(name)}/`;
		const byNameRequests = apiRequests(sandbox()).filter((r) => r.path.startsWith(encoded));
		expect(byNameRequests.map((r) => r.method)).toEqual(['PUT', 'POST']);
		for (const request of byNameRequests) {
			expect(decodeURIComponent(request.path.split('/')[3])).toBe(name);
		}
		// Nothing leaked into another route: every request hit a data-source path.
		expect(apiRequests(sandbox()).every((r) => r.path.startsWith('/v1/data-sources'))).toBe(true);
	});

	it('a query value with &, =, # and % arrives whole', async () => {
		const type = 'a&b=c#d 100%';
		const result = await run({
			resource: 'dataSource',
			operation: 'getMany',
			scope: 'app',
			app: APP,
			type,
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request.query).toEqual(expect.objectContaining({ appId: '11', type }));
		expect(result.json).toEqual([]);
	});
});
