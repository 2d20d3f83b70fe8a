import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator({
		description:
			'The data source to delete, with all its entries. Fliplet Studio keeps deleted data sources in a trash that Get Many Deleted lists and Restore brings back from, but the public API documentation does not promise it: export or copy the entries first if you may need them.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: dataSourcePath(target),
			qs: target.qs,
			idempotent: true,
			itemIndex,
		});
		return { deleted: true, dataSource: target.ref };
	});
}
