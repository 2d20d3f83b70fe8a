import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { mediaIdField } from '../media.descriptions';
import { deleteMedia } from '../media.operations';

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFolder'], operation: ['delete'] } },
	[
		{
			...mediaIdField('Folder'),
			description:
				"The media folder's ID. Its files and subfolders are deleted with it (Fliplet Studio's File Manager keeps them in its trash).",
		},
	],
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await deleteMedia.call(this, items, 'Folder');
}
