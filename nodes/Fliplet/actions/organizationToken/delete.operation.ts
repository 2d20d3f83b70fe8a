import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import { readOrganizationId } from '../../helpers/organizationId';
import { organizationLocator } from '../organization/organization.descriptions';

const properties: INodeProperties[] = [
	organizationLocator(),
	{
		displayName: 'Token',
		name: 'token',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The token to revoke: pick it, or give its ID (not its secret)',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchOrganizationTokens', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 4567',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organizationToken'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const organizationId = readOrganizationId.call(this, itemIndex);
		const tokenId = String(
			this.getNodeParameter('token', itemIndex, '', { extractValue: true }) ?? '',
		).trim();
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
