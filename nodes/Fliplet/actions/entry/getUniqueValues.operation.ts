import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { splitList } from '../../helpers/commaList';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Columns',
		name: 'uniqueColumns',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Department, Address.city',
		description: 'Comma-separated columns whose distinct values you want; nested values use a dot',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['getUniqueValues'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const columns = splitList(this.getNodeParameter('uniqueColumns', itemIndex, ''));
		if (!columns.length) {
			throw new NodeOperationError(this.getNode(), 'No column given', {
				itemIndex,
				description: 'Give at least one column name, e.g. Department.',
			});
		}
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target, 'indexes', columns.join(',')),
			qs: target.qs,
			itemIndex,
		});
		return objectFrom(body, 'indexes') as IDataObject;
	});
}
