import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as create from './create.operation';
import * as deleteFolder from './delete.operation';
import * as getMany from './getMany.operation';

export const operations: Record<string, OperationModule> = {
	create,
	delete: deleteFolder,
	getMany,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['mediaFolder'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					"Create a folder in an app's or an organization's media library, or in a folder",
				action: 'Create a media folder',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a media folder with its files and subfolders',
				action: 'Delete a media folder',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the folders of an app's or an organization's media library, or a folder's subfolders",
				action: 'Get many media folders',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...deleteFolder.description,
	...getMany.description,
];
