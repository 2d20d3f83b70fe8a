import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from './dataSource.descriptions';

const properties: INodeProperties[] = [dataSourceLocator()];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target),
			qs: target.qs,
			itemIndex,
		});
		return objectFrom(body, 'dataSource');
	});
}
