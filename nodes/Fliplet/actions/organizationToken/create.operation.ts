import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItemsOnce } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { readOrganizationId } from '../../helpers/organizationId';
import { organizationLocator } from '../organization/organization.descriptions';

const properties: INodeProperties[] = [
	organizationLocator(),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Reporting integration',
		description:
			'Name of the new token. The output holds the secret token once: store it right away (e.g. in a credential), Fliplet never shows it again.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organizationToken'], operation: ['create'] } },
	properties,
);

/**
 * When a later item stops the node, the tokens created before it keep their secrets in the error's
 * data (shown under its details, kept with the execution as an output is), never in its message or
 * description, which n8n's logs and error notifications quote.
 */
const CREATED = { noun: 'token', done: 'created' };

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, CREATED, async (itemIndex) => {
		const organizationId = readOrganizationId.call(this, itemIndex);
		const name = String(this.getNodeParameter('name', itemIndex, '') ?? '').trim();
		if (!name) {
			throw new NodeOperationError(this.getNode(), 'The token needs a name', {
				itemIndex,
				description: 'Give the token a name that says what uses it, e.g. "Reporting integration".',
			});
		}
		// Never retried: a second attempt could create a second token whose secret nobody sees.
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('organizations', organizationId, 'tokens'),
			body: { name },
			itemIndex,
		});
		return { organizationId, ...objectFrom(body, 'token') };
	});
}
