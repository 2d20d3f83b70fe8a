import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { mediaIdField } from '../media.descriptions';
import { deleteMedia } from '../media.operations';

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFile'], operation: ['delete'] } },
	[mediaIdField('File')],
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await deleteMedia.call(this, items, 'File');
}
