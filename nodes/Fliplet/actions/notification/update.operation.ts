import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getAppId, readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import {
	contentFields,
	notificationIdField,
	pushFields,
	scopeFields,
	statusFields,
} from './notification.descriptions';
import { buildUpdateBody } from './payload';
import { notificationFrom } from './response';

const properties: INodeProperties[] = [
	notificationIdField,
	...statusFields('published'),
	...contentFields,
	{
		displayName: 'Data Mode',
		name: 'dataMode',
		type: 'options',
		default: 'merge',
		options: [
			{ name: 'Merge', value: 'merge', description: 'Change only the given fields of the data' },
			{ name: 'Replace', value: 'replace', description: 'The given fields become the whole data' },
		],
		description:
			'How given Title, Message and Additional Data change the stored data (unused when all are empty)',
	},
	...scopeFields(true),
	...pushFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const id = readWholeNumberParameter.call(this, 'notificationId', 'Notification ID', itemIndex);
		const body = buildUpdateBody(this, itemIndex);
		const response = await flipletApiRequest.call(this, {
			method: 'PUT',
			path: apiPath('apps', appId, 'notifications', id),
			body,
			idempotent: true,
			itemIndex,
		});
		return notificationFrom(response, { id, updated: true, ...body });
	});
}
