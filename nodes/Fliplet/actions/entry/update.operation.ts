import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entryFrom, getEntryData, getEntryId, requireColumns } from '../../helpers/dataSourceEntry';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { entryColumnsField, entryIdField } from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	entryIdField,
	{
		displayName: 'Update Mode',
		name: 'updateMode',
		type: 'options',
		default: 'merge',
		options: [
			{
				name: 'Merge Columns',
				value: 'merge',
				description:
					'Change only the given columns and keep the others: the node reads the entry, then writes the merged data (two requests)',
			},
			{
				name: 'Replace Entry',
				value: 'replace',
				description: 'The entry gets exactly the given columns; columns not given are removed',
			},
		],
	},
	entryColumnsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entryId = getEntryId.call(this, itemIndex);
		let data = getEntryData.call(this, items, itemIndex);
		requireColumns.call(this, data, itemIndex);
		const path = dataSourcePath(target, 'data', entryId);
		if (this.getNodeParameter('updateMode', itemIndex, 'merge') === 'merge') {
			const current = entryFrom.call(
				this,
				await flipletApiRequest.call(this, { method: 'GET', path, qs: target.qs, itemIndex }),
				itemIndex,
			);
			data = { ...((current.data as object) ?? {}), ...data };
		}
		const body = await flipletApiRequest.call(this, {
			method: 'PUT',
			path,
			qs: target.qs,
			body: data,
			idempotent: true,
			itemIndex,
		});
		return entryFrom.call(this, body, itemIndex);
	});
}
