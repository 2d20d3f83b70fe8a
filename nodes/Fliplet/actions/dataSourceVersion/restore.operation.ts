import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { versionIdField } from './version.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator({
		description:
			'The data source to restore. Its whole content is replaced by the version; the platform keeps the current content as a "pre-restore" version.',
	}),
	versionIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSourceVersion'], operation: ['restore'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const versionId = readWholeNumberParameter.call(this, 'versionId', 'Version ID', itemIndex, '');
		const body = (await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'versions', versionId, 'restore'),
			qs: target.qs,
			// Restoring the same version twice leaves the same content.
			idempotent: true,
			itemIndex,
		})) as IDataObject;
		// The response is not documented: pass on whatever comes back.
		return Object.keys(body ?? {}).length ? body : { restored: true, versionId };
	});
}
