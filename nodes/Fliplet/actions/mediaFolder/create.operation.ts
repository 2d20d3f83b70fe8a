import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItemsOnce } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { mediaLocation, mediaLocationFields } from '../media.descriptions';

const properties: INodeProperties[] = [
	...mediaLocationFields({ folderLabel: 'Parent Folder', withOrganization: true }),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Inspection photos',
		description: 'The name of the new folder',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFolder'], operation: ['create'] } },
	properties,
);

const CREATED = { noun: 'folder', done: 'created' };

/**
 * `POST v1/media/folders` with `name` and the location in the body (`appId`, `organizationId`, or
 * `parentId` with `organizationId`, as the media REST docs' example sends it). A create is never
 * sent twice on its own (nor by Retry On Fail): a second one would make a second folder.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, CREATED, async (itemIndex) => {
		const name = String(this.getNodeParameter('name', itemIndex, '') ?? '').trim();
		if (!name) {
			throw new NodeOperationError(this.getNode(), 'The folder has no name', {
				itemIndex,
				description: 'Give the new folder a name in "Name".',
			});
		}
		const location = await mediaLocation.call(this, itemIndex, {
			withOrganization: true,
			folderKey: 'parentId',
		});
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('media', 'folders'),
			body: { name, ...location },
			itemIndex,
		});
		const folder = objectFrom(body, 'folder');
		if (folder.id !== undefined) return folder;
		throw new NodeOperationError(
			this.getNode(),
			'Unexpected response from Fliplet: no folder in it',
			{
				itemIndex,
				description:
					'Fliplet accepted the request but answered without the folder, so it was most likely created. Check the media library before running this item again, and please report the response.',
			},
		);
	});
}
