import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as getEntries from './getEntries.operation';
import * as getMany from './getMany.operation';
import * as restore from './restore.operation';

export const operations: Record<string, OperationModule> = { getEntries, getMany, restore };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['dataSourceVersion'] } },
		options: [
			{
				name: 'Get Entries',
				value: 'getEntries',
				description: 'Read the entries stored in one version (snapshot) of a data source',
				action: 'Get entries of a data source version',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List the versions (snapshots) of a data source, taken on each change, newest first',
				action: 'Get many data source versions',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Replace the whole content of a data source with a version (snapshot)',
				action: 'Restore a data source version',
			},
		],
		default: 'getMany',
	},
	...getEntries.description,
	...getMany.description,
	...restore.description,
];
