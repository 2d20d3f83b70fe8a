import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listMedia, mediaListProperties } from '../media.operations';

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFolder'], operation: ['getMany'] } },
	mediaListProperties('Folder (Its Subfolders)'),
);

/** The top-level folders of an app or an organization, or a folder's subfolders. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await listMedia.call(this, items, 'folders');
}
