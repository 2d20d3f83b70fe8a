import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDataSourceContext } from '../../helpers/dataSourceContext';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { scopeFields } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	...scopeFields,
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['create'] } },
	properties,
);

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
