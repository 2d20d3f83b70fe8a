import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sendInBatches } from '../../helpers/batchSend';
import { getAppId } from '../../helpers/locators';
import { apiPath, flipletApiRequest } from '../../transport';
import { buildCreateBody, EDITOR_FLAG, type NotificationPayload } from './payload';
import { createdList } from './response';

const properties: INodeProperties[] = [
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000 },
		default: 50,
		description: 'Max number of notifications per batch request',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['createBatch'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await (sendInBatches<NotificationPayload>).call(this, items, {
		noun: 'notification',
		done: 'created',
		batchSize: this.getNodeParameter('batchSize', 0, 50) as number,
		groupBy: (payload) => String(payload.appId),
		prepare: async (itemIndex) => ({
			appId: await getAppId.call(this, itemIndex),
			body: buildCreateBody(this, itemIndex),
		}),
		send: async (group) => {
			const response = await flipletApiRequest.call(this, {
				method: 'POST',
				path: apiPath('apps', group[0].payload.appId, 'notifications', 'batch'),
				body: { notifications: group.map((entry) => ({ ...entry.payload.body, ...EDITOR_FLAG })) },
				itemIndex: group[0].itemIndex,
			});
			const created = createdList(response, group.length);
			return group.map((entry, i) => created?.[i] ?? { created: true, ...entry.payload.body });
		},
	});
}
