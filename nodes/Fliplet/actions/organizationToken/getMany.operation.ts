import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { readOrganizationId } from '../../helpers/organizationId';
import { organizationLocator } from '../organization/organization.descriptions';

const properties: INodeProperties[] = [organizationLocator(), ...returnAllOrLimit()];

export const description = updateDisplayOptions(
	{ show: { resource: ['organizationToken'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const organizationId = readOrganizationId.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('organizations', organizationId, 'tokens'),
			itemIndex,
		});
		const tokens = listFrom(this.getNode(), body, 'organizationTokens', itemIndex);
		return takeFirst(tokens, maxResults.call(this, itemIndex));
	});
}
