import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import { organizationIdFrom } from '../organization/organizationId';
import { organizationLocator } from '../organization/organization.descriptions';

const properties: INodeProperties[] = [
	organizationLocator(),
	{
		displayName: 'Token ID',
		name: 'tokenId',
		// The numeric id of a token, not its secret: nothing to hide.
		// eslint-disable-next-line n8n-nodes-base/node-param-type-options-password-missing
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 4567',
		description: 'The ID of the token (Organization Token → Get Many lists them), not its secret',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organizationToken'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const organizationId = organizationIdFrom(
			this.getNode(),
			this.getNodeParameter('organization', itemIndex) as INodeParameterResourceLocator,
			itemIndex,
		);
		const tokenId = String(this.getNodeParameter('tokenId', itemIndex, '')).trim();
		if (!/^\d+$/.test(tokenId)) {
			throw new NodeOperationError(this.getNode(), `Token ID: "${tokenId}" is not an id`, {
				itemIndex,
				description:
					'Give the numeric id of the token (Organization Token → Get Many shows it), not the secret token itself.',
			});
		}
		// Deleting twice ends in the same state, so a retry after a network fault is harmless.
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: apiPath('organizations', organizationId, 'tokens', tokenId),
			idempotent: true,
			itemIndex,
		});
		return { deleted: true, organizationId, id: Number(tokenId) };
	});
}
