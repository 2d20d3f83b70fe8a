import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItems } from '../../helpers/mapItems';
import { getAppId } from '../../helpers/locators';
import { apiPath, flipletApiRequest } from '../../transport';
import { splitList } from '../../helpers/commaList';

const properties: INodeProperties[] = [
	{
		displayName: 'Recipient ID',
		name: 'recipientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b',
		description: 'The GUID that identifies the user who read the notifications',
	},
	{
		displayName: 'Notification IDs',
		name: 'notificationIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 501, 502',
		description: 'IDs of the notifications to mark as read, separated by commas (or a list)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['markAsRead'] } },
	properties,
);

/** The API identifies a recipient by a GUID: 8-4-4-4-12 hexadecimal digits. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function notificationIds(this: IExecuteFunctions, itemIndex: number): number[] {
	const raw = this.getNodeParameter('notificationIds', itemIndex) as unknown;
	const parts = Array.isArray(raw)
		? raw.map((id) => String(id).trim()).filter(Boolean)
		: splitList(raw);
	const bad = parts.filter((id) => !/^\d+$/.test(id));
	if (!parts.length || bad.length) {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: "Notification IDs" ${parts.length ? `has values that are not IDs: ${bad.join(', ')}` : 'is empty'}`,
			{
				itemIndex,
				description: 'Give notification IDs (whole numbers) separated by commas, e.g. 501, 502.',
			},
		);
	}
	return parts.map(Number);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const recipientId = String(this.getNodeParameter('recipientId', itemIndex) ?? '').trim();
		if (!GUID.test(recipientId)) {
			throw new NodeOperationError(
				this.getNode(),
				`Item ${itemIndex}: "Recipient ID" ${recipientId ? `is not a GUID: "${recipientId}"` : 'is empty'}`,
				{
					itemIndex,
					description:
						'Give the GUID of the user who read the notifications, e.g. 3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b (a user ID or email address is not accepted).',
				},
			);
		}
		const entries = notificationIds.call(this, itemIndex);
		await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('apps', appId, 'notifications', 'mark-as-read'),
			body: { recipientId, entries },
			idempotent: true,
			itemIndex,
		});
		return { recipientId, entries, read: true };
	});
}
