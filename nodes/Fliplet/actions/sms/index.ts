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
		displayOptions: { show: { resource: ['sms'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description:
					"Send one SMS per input item through Fliplet's default sender or your Twilio account, optionally grouped into batch requests",
				action: 'Send an SMS',
			},
		],
		default: 'send',
	},
	...send.description,
];
