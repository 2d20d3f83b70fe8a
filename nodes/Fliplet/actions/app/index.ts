import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getMany from './getMany.operation';
import * as publish from './publish.operation';

export const operations: Record<string, OperationModule> = { getMany, publish };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['app'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the apps the token can access, with their published app ID',
				action: 'Get many apps',
			},
			{
				name: 'Publish',
				value: 'publish',
				description: 'Publish an in-app update to the live app',
				action: 'Publish an app update',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...publish.description,
];
