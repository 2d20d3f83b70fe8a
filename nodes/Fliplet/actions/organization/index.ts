import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getAnalytics from './getAnalytics.operation';
import * as getAuditLogs from './getAuditLogs.operation';

export const operations: Record<string, OperationModule> = { getAnalytics, getAuditLogs };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organization'] } },
		options: [
			{
				name: 'Get Analytics',
				value: 'getAnalytics',
				description:
					'Read aggregated usage of an organization for a period: app and Studio sessions per day, users, apps created, edited and published',
				action: 'Get organization analytics',
			},
			{
				name: 'Get Audit Logs',
				value: 'getAuditLogs',
				description:
					'Read the audit log of an organization (who did what and when), filtered by type, app and date, as items or a CSV file',
				action: 'Get organization audit logs',
			},
		],
		default: 'getAuditLogs',
	},
	...getAnalytics.description,
	...getAuditLogs.description,
];
