import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as send from './send.operation';

export const operations: Record<string, OperationModule> = { send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['email'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description:
					'Send one email per input item through Fliplet, optionally grouped into batch requests, with attachments from binary data',
				action: 'Send an email',
			},
		],
		default: 'send',
	},
	...send.description,
];
