import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getAppId } from './locators';

/** The `appId` or `organizationId` query a data source list or create needs. */
export async function getDataSourceContext(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const scope = this.getNodeParameter('scope', itemIndex, 'app') as string;
	if (scope === 'app') return { appId: await getAppId.call(this, itemIndex) };
	const organizationId = String(this.getNodeParameter('organizationId', itemIndex, '')).trim();
	if (!/^\d+$/.test(organizationId)) {
		throw new NodeOperationError(
			this.getNode(),
			`Organization ID: "${organizationId}" is not an ID`,
			{
				itemIndex,
				description:
					'Give the organization ID as a whole number (Fliplet Studio shows it in the organization settings), or choose the "App" scope.',
			},
		);
	}
	return { organizationId: Number(organizationId) };
}
