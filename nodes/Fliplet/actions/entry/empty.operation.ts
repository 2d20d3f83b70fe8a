import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator({
		description:
			'The data source to empty. Every entry is deleted; the data source, its columns and its versions stay (a version can bring the entries back).',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['empty'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'data'),
			qs: target.qs,
			body: { entries: [] },
			idempotent: true,
			itemIndex,
		});
		return { emptied: true, dataSource: target.ref };
	});
}
