import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getAppId, readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
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
	...statusFields('keep'),
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

/**
 * The notification's current status and orderAt, to send back unchanged: an update without them
 * would make it a draft and move its date to now.
 */
async function currentSchedule(
	this: IExecuteFunctions,
	appId: number,
	id: number,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await flipletApiRequest.call(this, {
		method: 'POST',
		path: apiPath('apps', appId, 'notifications'),
		body: { where: { id }, limit: 1 },
		idempotent: true,
		itemIndex,
	});
	const record = listFrom(this.getNode(), response, 'notifications', itemIndex).find(
		(notification) => Number(notification.id) === id,
	);
	if (!record || typeof record.status !== 'string') {
		throw new NodeOperationError(this.getNode(), `Notification ${id} was not found`, {
			itemIndex,
			description:
				'Check the Notification ID (Get Many shows it) and that it belongs to this app. To set the status without reading it, choose Draft, Published or Scheduled.',
		});
	}
	const kept: IDataObject = { status: record.status };
	if (record.orderAt !== undefined && record.orderAt !== null) kept.orderAt = record.orderAt;
	return kept;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const id = readWholeNumberParameter.call(this, 'notificationId', 'Notification ID', itemIndex);
		const changes = buildUpdateBody(this, itemIndex);
		const body =
			changes.status === undefined
				? { ...(await currentSchedule.call(this, appId, id, itemIndex)), ...changes }
				: changes;
		const response = await flipletApiRequest.call(this, {
			method: 'PUT',
			path: apiPath('apps', appId, 'notifications', id),
			body,
			// A retry after a dropped connection would send the push a second time.
			idempotent: body.pushNotification === undefined,
			itemIndex,
		});
		return notificationFrom(response, { id, updated: true, ...body });
	});
}
