import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import { mediaIdField } from '../media.descriptions';

const properties: INodeProperties[] = [
	{
		...mediaIdField('Folder'),
		description:
			"The media folder's ID. Its files and subfolders are deleted with it (Fliplet Studio's File Manager keeps them in its trash).",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFolder'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const id = readWholeNumberParameter.call(this, 'folderId', 'Folder ID', itemIndex, '');
		// Deleting twice ends in the same state, so a retry after a network fault is harmless.
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: apiPath('media', 'folders', id),
			idempotent: true,
			itemIndex,
		});
		return { deleted: true, id };
	});
}
