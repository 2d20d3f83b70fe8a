import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeParameters,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	apiRequests,
	FLIPLET_NODE,
	nodeTypes,
	runListSearch,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { additionalData } from '../harness/engine';

const sandbox = useSandbox();

/** n8n-core's real LoadOptionsContext for the node with the given parameters. */
function contextFor(
	parameters: INodeParameters,
	credentials: Record<string, ICredentialDataDecryptedObject>,
) {
	const node: INode = {
		id: 'node-under-test',
		name: 'Under Test',
		type: FLIPLET_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { flipletApi: { id: 'cred-flipletApi', name: 'Test flipletApi' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const workflowData = { id: 'methods', name: 'Methods', nodes: [node], connections: {} };
	const data = additionalData(
		credentials,
		'methods',
		'manual',
		workflowData as unknown as IWorkflowBase,
	);
	data.currentNodeParameters = parameters;
	return new LoadOptionsContext(workflow, node, data, 'parameters');
}

const methods = () => nodeTypes.getByName(FLIPLET_NODE).methods!;
const staffLocator = { __rl: true, mode: 'name', value: 'Staff' };

describe('Data source pickers', () => {
	it('From List searches the data sources of the chosen app', async () => {
		const result = await runListSearch({
			method: 'searchDataSources',
			filter: 'dep',
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				scope: 'app',
				app: { __rl: true, mode: 'id', value: '11' },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.results).toEqual([{ name: 'Departments (101)', value: '101' }]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)[0].query).toEqual({ appId: '11' });
	});

	it('without an app chosen, From List covers every app the token reaches', async () => {
		const context = contextFor(
			{ resource: 'entry', operation: 'get' },
			sandboxCredential(sandbox(), TOKENS.org),
		);
		const result = await methods().listSearch!.searchDataSources.call(context);
		expect(result.results.map((r) => r.value)).toEqual(['100', '101', '102', '103', '104']);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/).map((r) => r.query.appId)).toEqual([
			'11',
			'21',
		]);
	});

	it('column options come from the data source columns, plus the entry fields', async () => {
		const context = contextFor(
			{ resource: 'entry', operation: 'getMany', dataSource: staffLocator },
			sandboxCredential(sandbox()),
		);
		const options = await methods().loadOptions!.getDataSourceColumns.call(context);
		expect(options.map((option) => option.value)).toEqual([
			'Name',
			'Email',
			'Department',
			'Age',
			'Joined',
			'Address',
			'id',
			'createdAt',
			'updatedAt',
		]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/Staff$/)).toHaveLength(1);
	});

	it('the column mapper offers every column, and asks with ?dsn for an all-digit name', async () => {
		const context = contextFor(
			{
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'name', value: '2024' },
			},
			sandboxCredential(sandbox()),
		);
		const mapping = await methods().resourceMapping!.getDataSourceColumnsMapping.call(context);
		expect(mapping.fields.map((field) => [field.id, field.required])).toEqual([
			['Quarter', false],
			['Revenue', false],
		]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/2024$/)[0].query).toEqual({ dsn: 'true' });
	});
});
