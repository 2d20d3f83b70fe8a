import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sendInBatches } from '../../helpers/batchSend';
import { getAppId } from '../../helpers/locators';
import { apiPath, flipletApiRequest } from '../../transport';
import { buildCreateBody, EDITOR_FLAG, type NotificationPayload } from './payload';
import { notificationFrom } from './response';

/** Create and Create in Batch share their fields (see index.ts); Create adds none of its own. */
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['create'] } },
	[],
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await (sendInBatches<NotificationPayload>).call(this, items, {
		noun: 'notification',
		done: 'created',
		batchSize: 1,
		prepare: async (itemIndex) => ({
			appId: await getAppId.call(this, itemIndex),
			body: buildCreateBody(this, itemIndex),
		}),
		send: async ([{ itemIndex, payload }]) => {
			const response = await flipletApiRequest.call(this, {
				method: 'PUT',
				path: apiPath('apps', payload.appId, 'notifications'),
				body: { ...payload.body, ...EDITOR_FLAG },
				itemIndex,
			});
			return [notificationFrom(response, { created: true, ...payload.body })];
		},
	});
}
