import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { maxResults, takeFirst } from '../../helpers/limits';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';

const properties: INodeProperties[] = [dataSourceLocator(), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSourceVersion'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target, 'versions'),
			qs: target.qs,
			itemIndex,
		});
		return takeFirst(
			listFrom(this.getNode(), body, 'versions', itemIndex),
			maxResults.call(this, itemIndex),
		);
	});
}
