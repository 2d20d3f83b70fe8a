import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getAppId, readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import { notificationIdField } from './notification.descriptions';

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['delete'] } },
	[notificationIdField],
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const id = readWholeNumberParameter.call(this, 'notificationId', 'Notification ID', itemIndex);
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: apiPath('apps', appId, 'notifications', id),
			idempotent: true,
			itemIndex,
		});
		return { id, deleted: true };
	});
}
