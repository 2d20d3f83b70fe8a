import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Data Source ID',
		name: 'dataSourceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 123',
		description:
			'ID of the deleted data source to bring back with its entries. The restore call is the one Fliplet Studio uses; it is not in the public API docs, so it may change.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['restore'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const id = readWholeNumberParameter.call(this, 'dataSourceId', 'Data source ID', itemIndex);
		// Not retried: after a restore that landed, a second one would fail with "not deleted".
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('data-sources', id, 'restore'),
			itemIndex,
		});
		return objectFrom(body, 'dataSource', { restored: true, id });
	});
}
