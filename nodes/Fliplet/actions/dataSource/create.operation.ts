import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDataSourceContext } from '../../helpers/dataSourceContext';
import { jsonParameter } from '../../helpers/dataSourceQuery';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { scopeFields } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	...scopeFields(),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Staff',
		description: 'Unique name of the new data source; it can be used in place of its ID',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		default: '',
		placeholder: 'e.g. menu',
		description:
			"Optional type. A data source with a type is hidden from Studio's data source manager.",
	},
	{
		displayName: 'Security Rules',
		name: 'securityRules',
		type: 'options',
		default: 'none',
		options: [
			{
				name: 'Leave Unset',
				value: 'none',
				description: 'Send no rules: set them in Fliplet Studio later',
			},
			{
				name: 'Full Access for This App',
				value: 'appFullAccess',
				description:
					"The app may read, insert, update and delete entries (the rule Fliplet's VS Code extension sets); needs Scope: App",
			},
			{ name: 'Custom (JSON)', value: 'json', description: 'Rules written as JSON' },
		],
	},
	{
		displayName: 'Security Rules (JSON)',
		name: 'accessRules',
		type: 'json',
		default: '',
		placeholder:
			'[{"type": ["select"], "allow": "all"}, {"type": ["insert", "update"], "allow": "loggedIn"}]',
		description:
			'A list of rules, each {type: [select, insert, update, delete], allow: "all", "loggedIn", {"user": {...}} or {"tokens": [token IDs]}}, with optional appId (a list of app IDs), enabled, include, exclude, require',
		displayOptions: { show: { securityRules: ['json'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['create'] } },
	properties,
);

/** Every operation, for the app the data source is created in. */
const FULL_ACCESS = ['select', 'insert', 'update', 'delete'];

/**
 * The security rules (`accessRules`) to create the data source with, in the shape Fliplet's VS
 * Code extension sends (`Fliplet/fliplet-vscode-extension: src/apps-provider.ts`), or undefined.
 */
function securityRules(
	this: IExecuteFunctions,
	qs: IDataObject,
	itemIndex: number,
): IDataObject[] | undefined {
	const choice = this.getNodeParameter('securityRules', itemIndex, 'none') as string;
	if (choice === 'json')
		return jsonParameter.call(this, 'accessRules', 'Security Rules (JSON)', itemIndex, 'array') as
			| IDataObject[]
			| undefined;
	if (choice !== 'appFullAccess') return undefined;
	if (qs.appId === undefined) {
		throw new NodeOperationError(this.getNode(), 'Full Access for This App needs Scope: App', {
			itemIndex,
			description:
				'Set Scope to App and pick the app, or write the rules in Security Rules (JSON), e.g. [{"type": ["select"], "allow": "all", "appId": [123]}].',
		});
	}
	return [{ type: FULL_ACCESS, allow: 'all', appId: [Number(qs.appId)], enabled: true }];
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const name = String(this.getNodeParameter('name', itemIndex, '') ?? '').trim();
		if (!name) {
			throw new NodeOperationError(this.getNode(), 'The data source needs a name', {
				itemIndex,
				description: 'Give the new data source a name, e.g. Staff.',
			});
		}
		const qs = await getDataSourceContext.call(this, itemIndex);
		const body: IDataObject = { name };
		const type = String(this.getNodeParameter('type', itemIndex, '') ?? '').trim();
		if (type) body.type = type;
		const accessRules = securityRules.call(this, qs, itemIndex);
		if (accessRules) body.accessRules = accessRules;
		const response = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('data-sources'),
			qs,
			body,
			itemIndex,
		});
		return objectFrom(response, 'dataSource');
	});
}
