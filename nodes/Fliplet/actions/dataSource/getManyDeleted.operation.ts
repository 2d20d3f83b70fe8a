import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listDeletedDataSources } from '../../helpers/deletedDataSources';
import { appLocator, returnAllOrLimit } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Deleted From',
		name: 'deletedScope',
		type: 'options',
		default: 'organization',
		options: [
			{
				name: 'Any App of the Organization',
				value: 'organization',
				description: "The deleted data sources of the token's organization",
			},
			{
				name: 'One App',
				value: 'app',
				description: 'Only the deleted data sources of one app',
			},
		],
	},
	appLocator({ displayOptions: { show: { deletedScope: ['app'] } } }),
	...returnAllOrLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['getManyDeleted'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const qs: IDataObject = {};
		if (this.getNodeParameter('deletedScope', itemIndex, 'organization') === 'app')
			qs.appId = await getAppId.call(this, itemIndex);
		const deleted = await listDeletedDataSources.call(this, qs, itemIndex);
		return takeFirst(deleted, maxResults.call(this, itemIndex));
	});
}
