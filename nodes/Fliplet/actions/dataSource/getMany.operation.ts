import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDataSourceContext } from '../../helpers/dataSourceContext';
import { maxResults, takeFirst } from '../../helpers/limits';
import { mapItems } from '../../helpers/mapItems';
import { httpStatusOf } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { scopeFields } from './dataSource.descriptions';

const properties: INodeProperties[] = [
	...scopeFields(true),
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		default: '',
		placeholder: 'e.g. menu',
		description: 'Only data sources of this type. Empty lists all of them.',
	},
	...returnAllOrLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSource'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const qs = await getDataSourceContext.call(this, itemIndex);
		const type = String(this.getNodeParameter('type', itemIndex, '') ?? '').trim();
		if (type) qs.type = type;
		const body = await flipletApiRequest
			.call(this, { method: 'GET', path: apiPath('data-sources'), qs, itemIndex })
			.catch((error: unknown) => {
				if (!('appId' in qs || 'organizationId' in qs) && httpStatusOf(error) === '400') {
					// The contract asks for an app or organization; the platform's tools list without.
					throw new NodeOperationError(
						this.getNode(),
						'This Fliplet API lists data sources only by app or organization',
						{
							itemIndex,
							description:
								'Set Scope to App (app API tokens) or Organization (organization and Studio user tokens).',
						},
					);
				}
				throw error;
			});
		return takeFirst(
			listFrom(this.getNode(), body, 'dataSources', itemIndex),
			maxResults.call(this, itemIndex),
		);
	});
}
