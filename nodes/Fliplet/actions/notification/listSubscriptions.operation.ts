import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['listSubscriptions'] } },
	returnAllOrLimit(),
);

const STUDIO_ONLY =
	"Fliplet lets only Studio users list push subscriptions: app and organization API tokens are refused. Use a Fliplet API credential holding a Studio user's token for this operation.";

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const max = maxResults.call(this, itemIndex);
		let body: unknown;
		try {
			body = await flipletApiRequest.call(this, {
				method: 'GET',
				path: apiPath('apps', appId, 'subscriptions'),
				itemIndex,
			});
		} catch (error) {
			const apiError = error as Error & { httpCode?: string | null; description?: string | null };
			if (apiError.httpCode === '403') apiError.description = STUDIO_ONLY;
			if (apiError.httpCode === '401')
				apiError.description = `${apiError.description ?? ''} ${STUDIO_ONLY}`.trim();
			throw apiError;
		}
		return takeFirst(listFrom(this.getNode(), body, 'subscriptions', itemIndex), max);
	});
}
