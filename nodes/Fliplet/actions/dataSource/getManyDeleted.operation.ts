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
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
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

/**
 * `GET /v1/data-sources/deleted/`, the list of Fliplet Studio's trash (not in the public docs): each
 * deleted data source with its `deletedAt`, until it is restored or removed for good.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const qs: IDataObject = {};
		if (this.getNodeParameter('deletedScope', itemIndex, 'organization') === 'app')
			qs.appId = await getAppId.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('data-sources', 'deleted'),
			qs,
			itemIndex,
		});
		return takeFirst(
			listFrom(this.getNode(), body, 'dataSources', itemIndex),
			maxResults.call(this, itemIndex),
		);
	});
}
