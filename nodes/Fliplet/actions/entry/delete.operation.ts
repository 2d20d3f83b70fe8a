import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getEntryId } from '../../helpers/dataSourceEntry';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { entryIdField } from './entry.descriptions';

const properties: INodeProperties[] = [dataSourceLocator(), entryIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const id = getEntryId.call(this, itemIndex);
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: dataSourcePath(target, 'data', id),
			qs: target.qs,
			idempotent: true,
			itemIndex,
		});
		return { id, deleted: true };
	});
}
