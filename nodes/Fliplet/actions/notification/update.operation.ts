import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getAppId, readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { isObject } from '../../helpers/isObject';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import {
	contentFields,
	notificationIdField,
	pushFields,
	scopeFields,
	statusFields,
} from './notification.descriptions';
import { LIST_EVERYTHING } from './listEverything';
import {
	buildUpdateBody,
	EDITOR_FLAG,
	fillPushText,
	pushLacksText,
	refuseDraftPush,
} from './payload';
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
 * The notification as stored. Fliplet lists only published notifications of the caller's scope
 * unless asked otherwise, so the lookup asks for every status and scope.
 */
async function currentNotification(
	this: IExecuteFunctions,
	appId: number,
	id: number,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await flipletApiRequest.call(this, {
		method: 'POST',
		path: apiPath('apps', appId, 'notifications'),
		body: { where: { id }, limit: 1, ...LIST_EVERYTHING },
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
				'Check the Notification ID (Get Many shows it, with Status and All Scopes to see drafts, scheduled ones and every audience) and that it belongs to this app. To set the status without reading it, choose Draft, Published or Scheduled.',
		});
	}
	return record;
}

/**
 * The current status and orderAt, to send back unchanged: without them it would become a draft
 * sent now. orderAt goes as Unix seconds, the only form the platform's own code sends (answers
 * carry an ISO date; a number is taken as seconds already).
 */
function keptSchedule(record: IDataObject): IDataObject {
	const kept: IDataObject = { status: record.status };
	const { orderAt } = record;
	if (typeof orderAt === 'number') kept.orderAt = orderAt;
	else if (typeof orderAt === 'string' && !Number.isNaN(Date.parse(orderAt)))
		kept.orderAt = Math.floor(Date.parse(orderAt) / 1000);
	return kept;
}

function hasScope(record: IDataObject): boolean {
	const { scope } = record;
	if (Array.isArray(scope)) return scope.length > 0;
	return isObject(scope) && Object.keys(scope).length > 0;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const id = readWholeNumberParameter.call(this, 'notificationId', 'Notification ID', itemIndex);
		const changes = buildUpdateBody(this, itemIndex);
		const keepStatus = changes.status === undefined;
		const toEveryone = this.getNodeParameter('scopeMode', itemIndex, 'keep') === 'everyone';
		const current =
			keepStatus || toEveryone || pushLacksText(changes)
				? await currentNotification.call(this, appId, id, itemIndex)
				: undefined;
		if (keepStatus && current?.status === 'draft')
			refuseDraftPush(this, itemIndex, `notification ${id} is a draft, and Status is Keep Current`);
		// Fliplet's editor never sends an empty scope, so an audience cannot be taken away here.
		if (current && toEveryone && hasScope(current)) {
			throw new NodeOperationError(
				this.getNode(),
				`Notification ${id} has an audience, which an update cannot remove`,
				{
					itemIndex,
					description:
						"Fliplet's own editor never sends an empty audience, and an update that leaves the audience out keeps it, so an update cannot turn a targeted notification into one for everyone. Create a new notification for Everyone (and delete this one), or choose Keep Current or Matching Users.",
				},
			);
		}
		fillPushText(this, itemIndex, changes, current);
		const body = keepStatus && current ? { ...keptSchedule(current), ...changes } : changes;
		const response = await flipletApiRequest.call(this, {
			method: 'PUT',
			path: apiPath('apps', appId, 'notifications', id),
			body: { ...body, ...EDITOR_FLAG },
			// A retry after a dropped connection would send the push a second time.
			idempotent: body.pushNotification === undefined,
			itemIndex,
		});
		return notificationFrom(response, { id, updated: true, ...body });
	});
}
