import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { buildWhere, jsonParameter, type SimpleFilter } from '../../helpers/dataSourceQuery';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { filterRowsField, whereJsonField } from './query.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Filter Mode',
		name: 'queryMode',
		type: 'options',
		default: 'simple',
		options: [
			{ name: 'Simple', value: 'simple' },
			{ name: 'JSON', value: 'json' },
		],
	},
	{ ...filterRowsField, displayOptions: { show: { queryMode: ['simple'] } } },
	{ ...whereJsonField, displayOptions: { show: { queryMode: ['json'] } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['deleteMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const where =
			this.getNodeParameter('queryMode', itemIndex, 'simple') === 'json'
				? (jsonParameter.call(this, 'where', 'Where', itemIndex, 'object') as
						| IDataObject
						| undefined)
				: buildWhere.call(
						this,
						this.getNodeParameter('filters.conditions', itemIndex, []) as SimpleFilter[],
						itemIndex,
					);
		if (!where || !Object.keys(where).length) {
			throw new NodeOperationError(this.getNode(), 'Delete Many needs at least one filter', {
				itemIndex,
				description:
					'Add a filter so only matching entries are deleted. To delete every entry on purpose, use the Empty operation.',
			});
		}
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'data', 'query'),
			qs: target.qs,
			body: { type: 'delete', where },
			itemIndex,
		});
		const deletedCount = (body as IDataObject | undefined)?.deletedCount;
		if (typeof deletedCount !== 'number') {
			throw new NodeOperationError(
				this.getNode(),
				'Unexpected response from Fliplet: no deletedCount in it',
				{
					itemIndex,
					description:
						'The delete was sent, but the API did not say how many entries it removed. Read the data source to check what is left, and please report the response.',
				},
			);
		}
		return { deletedCount };
	});
}
