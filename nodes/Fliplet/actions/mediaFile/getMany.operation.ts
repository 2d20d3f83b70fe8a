import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listMedia, mediaListProperties } from '../media.operations';

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFile'], operation: ['getMany'] } },
	mediaListProperties('Folder'),
);

/** The files of a location, not those of its subfolders. */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await listMedia.call(this, items, 'files');
}
