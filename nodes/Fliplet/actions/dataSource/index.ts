import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as create from './create.operation';
import * as deleteDataSource from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getManyDeleted from './getManyDeleted.operation';
import * as restore from './restore.operation';
import * as update from './update.operation';

export const operations: Record<string, OperationModule> = {
	create,
	delete: deleteDataSource,
	get,
	getMany,
	getManyDeleted,
	restore,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['dataSource'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a data source (table) in an app or an organization',
				action: 'Create a data source',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a data source with all its entries, permanently',
				action: 'Delete a data source',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a data source (columns, type, settings) by ID or name, optionally with its number of entries',
				action: 'Get a data source',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the data sources of an app or an organization',
				action: 'Get many data sources',
			},
			{
				name: 'Get Many Deleted',
				value: 'getManyDeleted',
				description:
					"List the deleted data sources that can still be restored (Fliplet Studio's trash; not in the public docs)",
				action: 'Get many deleted data sources',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Bring back a deleted data source with its entries (not in the public docs)',
				action: 'Restore a deleted data source',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Rename a data source or set its list of columns',
				action: 'Update a data source',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...deleteDataSource.description,
	...get.description,
	...getMany.description,
	...getManyDeleted.description,
	...restore.description,
	...update.description,
];
