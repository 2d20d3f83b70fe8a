import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as deleteFile from './delete.operation';
import * as download from './download.operation';
import * as getMany from './getMany.operation';
import * as upload from './upload.operation';

export const operations: Record<string, OperationModule> = {
	delete: deleteFile,
	download,
	getMany,
	upload,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['mediaFile'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a file of the media library by its ID',
				action: 'Delete a media file',
			},
			{
				name: 'Download',
				value: 'download',
				description:
					'Download a file of the media library into binary data, optionally as a resized image',
				action: 'Download a media file',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the files of an app's or an organization's media library, or of a folder",
				action: 'Get many media files',
			},
			{
				name: 'Upload',
				value: 'upload',
				description:
					'Upload binary data into the media library: an app, an organization or a folder',
				action: 'Upload a media file',
			},
		],
		default: 'getMany',
	},
	...deleteFile.description,
	...download.description,
	...getMany.description,
	...upload.description,
];
