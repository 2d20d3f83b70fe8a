import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { appLocator, returnAllOrLimit } from '../common.descriptions';

const properties: INodeProperties[] = [appLocator(), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['appAnalytics'], operation: ['getSessions'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const max = maxResults.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('apps', appId, 'analytics', 'sessions'),
			itemIndex,
		});
		return takeFirst(listFrom(this.getNode(), body, 'sessions', itemIndex), max);
	});
}
