import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as commit from './commit.operation';
import * as deleteEntry from './delete.operation';
import * as deleteMany from './deleteMany.operation';
import * as empty from './empty.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getUniqueValues from './getUniqueValues.operation';
import * as importEntries from './import.operation';
import * as insert from './insert.operation';
import * as sync from './sync.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const operations: Record<string, OperationModule> = {
	commit,
	delete: deleteEntry,
	deleteMany,
	empty,
	get,
	getMany,
	getUniqueValues,
	import: importEntries,
	insert,
	sync,
	update,
	upsert,
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
				name: 'Commit',
				value: 'commit',
				description:
					'Insert, update and delete many entries in one request (raw commit for power users: entries, delete, merge, hooks)',
				action: 'Commit entry changes',
			},
			{
				name: 'Create',
				value: 'insert',
				description:
					"Add one entry (row) per input item, optionally with files uploaded from binary data; the data source's insert hooks run, as when an app adds an entry",
				action: 'Create an entry',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update an entry',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete one entry (row) of a data source by its ID, permanently',
				action: 'Delete an entry',
			},
			{
				name: 'Delete Many',
				value: 'deleteMany',
				description:
					'Delete every entry matching filters, permanently, and return how many were deleted',
				action: 'Delete many entries',
			},
			{
				name: 'Empty',
				value: 'empty',
				description:
					'Delete all entries of a data source (truncate), keeping the data source itself',
				action: 'Empty a data source',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one entry (row) of a data source by its ID',
				action: 'Get an entry',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'Find entries of a data source with filters, sorting and paging, or run a JSON query with aggregation and joins',
				action: 'Get many entries',
			},
			{
				name: 'Get Unique Values',
				value: 'getUniqueValues',
				description: 'List the distinct values of one or more columns of a data source',
				action: 'Get unique column values',
			},
			{
				name: 'Import',
				value: 'import',
				description:
					'Bulk-add all input items as entries in one request; replaces all entries only when chosen',
				action: 'Import entries',
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
				description:
					'Change the columns of an entry found by its ID, or of every entry holding the given values in the Columns to Match On (merge with or replace its data)',
				action: 'Update an entry',
			},
		],
		default: 'getMany',
	},
	...commit.description,
	...deleteEntry.description,
	...deleteMany.description,
	...empty.description,
	...get.description,
	...getMany.description,
	...getUniqueValues.description,
	...importEntries.description,
	...insert.description,
	...sync.description,
	...update.description,
	...upsert.description,
];
