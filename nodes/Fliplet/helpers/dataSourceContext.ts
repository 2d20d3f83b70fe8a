import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';

import { organizationIdFrom } from './organizationId';
import { getAppId } from './locators';

/**
 * The `appId` or `organizationId` query a data source list or create names; none for the scope
 * `token` (a list of the token's own data sources).
 */
export async function getDataSourceContext(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const scope = this.getNodeParameter('scope', itemIndex, 'app') as string;
	if (scope === 'token') return {};
	if (scope === 'app') return { appId: await getAppId.call(this, itemIndex) };
	const organizationId = organizationIdFrom(
		this.getNode(),
		this.getNodeParameter('organizationId', itemIndex) as INodeParameterResourceLocator | string,
		itemIndex,
	);
	return { organizationId };
}
