import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Entries Count',
				name: 'includeEntriesCount',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the number of entries (entriesCount), counted by Fliplet without reading them',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const count = this.getNodeParameter('options.includeEntriesCount', itemIndex, false) === true;
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target),
			qs: count ? { ...target.qs, includeEntriesCount: true } : target.qs,
			itemIndex,
		});
		return objectFrom(body, 'dataSource');
	});
}
