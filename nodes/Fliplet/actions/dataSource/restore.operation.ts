import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLocator, requireWholeNumber } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

const properties: INodeProperties[] = [
	// A resource locator under the former text field's name: a saved ID reads as "By ID".
	{
		displayName: 'Deleted Data Source',
		name: 'dataSourceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'The deleted data source to bring back with its entries. The restore call is the one Fliplet Studio uses; it is not in the public API docs, so it may change.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchDeletedDataSources', searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. 123' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['restore'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const { value } = readLocator.call(this, 'dataSourceId', itemIndex);
		const id = requireWholeNumber.call(this, value, 'Data source ID', itemIndex);
		// Not retried: after a restore that landed, a second one would fail with "not deleted".
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('data-sources', id, 'restore'),
			itemIndex,
		});
		return objectFrom(body, 'dataSource', { restored: true, id });
	});
}
