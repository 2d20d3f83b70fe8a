// A name is put into the request address as one URL-encoded path segment. "." and ".." are the
// two names no encoding can carry: every URL parser resolves them as folder steps, %2E included,
// so the node refuses them before sending anything, and sends every other name whole.
import type { INodeParameters } from 'n8n-workflow';

import { apiPath } from '../../nodes/Fliplet/transport';
import { UnsendablePathSegmentError } from '../../nodes/Fliplet/transport/pathSegments';
import {
	apiRequests,
	callSandbox,
	FLIPLET_NODE,
	nodeTypes,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { OPERATION_CASES } from './operationCases';

const sandbox = useSandbox();

const byName = (value: string) => ({ __rl: true, mode: 'name', value });

describe('apiPath', () => {
	it.each(['.', '..', ''])(
		'refuses the segment %j, saying how to address the record',
		(segment) => {
			expect(() => apiPath('data-sources', segment, 'data')).toThrow(UnsendablePathSegmentError);
			try {
				apiPath('data-sources', segment);
			} catch (error) {
				expect((error as UnsendablePathSegmentError).description).toMatch(/give its ID/);
			}
		},
	);

	it.each([
		['...', '...'],
		['%2e%2e', '%252e%252e'],
		['../apps', '..%2Fapps'],
		['.hidden', '.hidden'],
		['a/b?c#d', 'a%2Fb%3Fc%23d'],
		[' .. ', '%20..%20'],
	])('keeps %j inside one segment', (segment, encoded) => {
		const path = apiPath('data-sources', segment, 'data');
		expect(path).toBe(`/v1/data-sources/${encoded}/data`);
		expect(new URL(path, 'https://api.example.com').pathname).toBe(path);
	});

	// Why encoding is no way out: the encoded dots are dots to every URL parser.
	it.each([
		['%2E%2E', '/v1/data'],
		['.%2e', '/v1/data'],
		['%2E', '/v1/data-sources/data'],
	])('(a URL resolves %s as a folder step too)', (encoded, resolved) => {
		const url = new URL(`/v1/data-sources/${encoded}/data`, 'https://api.example.com');
		expect(url.pathname).toBe(resolved);
	});
});

/** Every operation whose data source can be given by name, from the node's own description. */
function operationsWithDataSourceByName(): string[] {
	return Object.keys(OPERATION_CASES).filter((key) => {
		const [resource, operation] = key.split('.');
		return nodeTypes
			.getByName(FLIPLET_NODE)
			.description.properties.some(
				(property) =>
					property.name === 'dataSource' &&
					property.type === 'resourceLocator' &&
					(property.displayOptions?.show?.resource as string[]).includes(resource) &&
					(property.displayOptions?.show?.operation as string[]).includes(operation) &&
					property.modes?.some((mode) => mode.name === 'name'),
			);
	});
}

describe('a data source named "." or ".." (By Name)', () => {
	const operations = operationsWithDataSourceByName();

	it('is offered by name in at least 15 operations', () => {
		expect(operations.length).toBeGreaterThanOrEqual(15);
	});

	const cases = operations.flatMap((key) => ['.', '..'].map((name) => [key, name] as const));

	it.each(cases)('%s with %j is refused before any request', async (key, name) => {
		const { parameters, item } = OPERATION_CASES[key];
		const [resource, operation] = key.split('.');
		const before = JSON.stringify(sandbox().state.dataSources);
		const result = await runNode({
			parameters: { resource, operation, ...parameters, dataSource: byName(name) },
			input: [item ? item(0) : { json: {} }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			`Data source: the name "${name}" cannot be used to address it`,
		);
		expect(result.error?.description).toMatch(/Pick the data source from the list or give its ID/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toEqual([]);
		expect(JSON.stringify(sandbox().state.dataSources)).toBe(before);
	});

	it('never writes an item onto another data source (Entry → Insert By Name ".")', async () => {
		// "." resolved away turns PUT /v1/data-sources/./data into PUT /v1/data-sources/data:
		// the update of a data source named "data", with the item's columns as its attributes.
		const created = await callSandbox(sandbox(), 'POST', '/v1/data-sources?appId=11', {
			name: 'data',
		});
		expect(created.status).toBe(201);
		const victim = () =>
			sandbox().state.dataSources.find((record: { name: string }) => record.name === 'data');
		const before = JSON.stringify(victim());
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: byName('.'),
				columns: { mappingMode: 'autoMapInputData', value: null },
			},
			input: [
				{
					json: {
						name: 'taken over',
						hooks: [{ type: 'insert', url: 'https://attacker.example/hook' }],
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ error: 'Data source: the name "." cannot be used to address it' }),
		]);
		expect(apiRequests(sandbox()).filter((r) => r.method !== 'POST')).toEqual([]);
		expect(JSON.stringify(victim())).toBe(before);
	});

	it('can still be reached by its ID', async () => {
		const created = await callSandbox(sandbox(), 'POST', '/v1/data-sources?appId=11', {
			name: '..',
		});
		const id = String(created.body.dataSource.id);
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: id },
				columns: { mappingMode: 'defineBelow', value: { Title: 'Hello' } },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/\d+\/data$/)).toHaveLength(1);
		expect(result.json[0]).toMatchObject({ dataSourceId: Number(id), data: { Title: 'Hello' } });
	});
});

describe('other names and ids put into a path', () => {
	function run(parameters: INodeParameters, token = TOKENS.app) {
		return runNode({
			parameters,
			credentials: sandboxCredential(sandbox(), token),
			continueOnFail: true,
		});
	}

	it('a column ".." in Get Unique Values is refused, not read as the data source itself', async () => {
		const result = await run({
			resource: 'entry',
			operation: 'getUniqueValues',
			dataSource: { __rl: true, mode: 'id', value: '100' },
			uniqueColumns: '..',
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				error: '".." cannot be part of a request address: web addresses read it as a folder step',
				description: expect.stringContaining('Nothing was sent'),
			}),
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it.each([
		['an app', { resource: 'app', operation: 'publish', releaseType: 'silent' }, 'app'],
		['an organization', { resource: 'organizationToken', operation: 'getMany' }, 'organization'],
	])('%s given by ID as ".." is refused as not an ID', async (_name, parameters, field) => {
		const result = await run(
			{ ...parameters, [field]: { __rl: true, mode: 'id', value: '..' } },
			TOKENS.org,
		);
		expect(result.json).toEqual([
			expect.objectContaining({ error: expect.stringMatching(/is not an id/i) }),
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it.each([
		['Entry → Get', { resource: 'entry', operation: 'get', entryId: '..' }],
		['Entry → Delete', { resource: 'entry', operation: 'delete', entryId: '.' }],
		['Entry → Update', { resource: 'entry', operation: 'update', entryId: '..' }],
		['Version → Restore', { resource: 'dataSourceVersion', operation: 'restore', versionId: '..' }],
		[
			'Notification → Delete',
			{ resource: 'notification', operation: 'delete', notificationId: '..' },
		],
	])('%s with ".." as the ID is refused before sending', async (_name, parameters) => {
		const result = await run({
			dataSource: { __rl: true, mode: 'id', value: '100' },
			app: { __rl: true, mode: 'id', value: '11' },
			columns: { mappingMode: 'defineBelow', value: { Name: 'x' } },
			...parameters,
		});
		expect(result.json).toEqual([
			expect.objectContaining({ error: expect.stringMatching(/not an id/i) }),
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
