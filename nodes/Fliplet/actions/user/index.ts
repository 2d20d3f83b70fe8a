import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as get from './get.operation';

export const operations: Record<string, OperationModule> = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the user the token belongs to (ID, name, email)',
				action: 'Get the token user',
			},
		],
		default: 'get',
	},
	...get.description,
];
