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
import { dataSourceLocator } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Columns',
				name: 'columns',
				type: 'string',
				default: '',
				placeholder: 'e.g. Name, Email, Department',
				description:
					'The full, comma-separated list of columns, in order (it replaces the current list)',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Staff 2026',
				description: 'The new name of the data source',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = {};
		if (typeof fields.name === 'string' && fields.name.trim()) body.name = fields.name.trim();
		if (typeof fields.columns === 'string' && fields.columns.trim()) {
			body.columns = splitList(fields.columns);
		}
		if (!Object.keys(body).length) {
			throw new NodeOperationError(this.getNode(), 'Nothing to update', {
				itemIndex,
				description: 'Add the new name or the new list of columns under "Update Fields".',
			});
		}
		const response = await flipletApiRequest.call(this, {
			method: 'PUT',
			path: dataSourcePath(target),
			qs: target.qs,
			body,
			idempotent: true,
			itemIndex,
		});
		return objectFrom(response, 'dataSource');
	});
}
