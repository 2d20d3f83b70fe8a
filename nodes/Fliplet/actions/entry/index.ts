import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as deleteEntry from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as insert from './insert.operation';
import * as sync from './sync.operation';
import * as update from './update.operation';

export const operations: Record<string, OperationModule> = {
	delete: deleteEntry,
	get,
	getMany,
	insert,
	sync,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['entry'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete one entry (row) of a data source by its ID, permanently',
				action: 'Delete an entry',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one entry (row) of a data source by its ID',
				action: 'Get an entry',
			},
			{
				name: 'Get Many / Query',
				value: 'getMany',
				description:
					'Find entries of a data source with filters, sorting and paging, or run a JSON query with aggregation and joins',
				action: 'Get many entries',
			},
			{
				name: 'Insert',
				value: 'insert',
				description:
					'Add one entry (row) per input item, optionally with files uploaded from binary data',
				action: 'Insert an entry',
			},
			{
				name: 'Sync',
				value: 'sync',
				description:
					'Make the data source match all input rows (e.g. a spreadsheet) by key columns: insert new, update changed, optionally delete missing, in a few bulk requests',
				action: 'Sync rows into a data source',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the columns of one entry by its ID (merge with or replace its data)',
				action: 'Update an entry',
			},
		],
		default: 'getMany',
	},
	...deleteEntry.description,
	...get.description,
	...getMany.description,
	...insert.description,
	...sync.description,
	...update.description,
];
