import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getSessions from './getSessions.operation';

export const operations: Record<string, OperationModule> = { getSessions };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['appAnalytics'] } },
		options: [
			{
				name: 'Get Sessions',
				value: 'getSessions',
				description: 'Read the analytics sessions of an app: device, browser, user and app version',
				action: 'Get analytics sessions of an app',
			},
		],
		default: 'getSessions',
	},
	...getSessions.description,
];
