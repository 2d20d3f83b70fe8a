import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['user'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('user'),
			itemIndex,
		});
		const user = objectFrom(body, 'user');
		// Fliplet answers the API host of the user's region beside the user.
		const host = (body as IDataObject | undefined)?.host;
		return typeof host === 'string' && !('host' in user) ? { ...user, host } : user;
	});
}
