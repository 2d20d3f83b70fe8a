import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as create from './create.operation';
import * as deleteToken from './delete.operation';
import * as getMany from './getMany.operation';

export const operations: Record<string, OperationModule> = { create, delete: deleteToken, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organizationToken'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create an organization API token. The secret is shown only once, in this output.',
				action: 'Create an organization token',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Revoke an organization API token: requests made with it fail from then on',
				action: 'Delete an organization token',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the API tokens of an organization (without their secrets)',
				action: 'Get many organization tokens',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...deleteToken.description,
	...getMany.description,
];
