import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { apiPath, flipletApiRequest } from '../../transport';
import { mediaIdField } from '../media.descriptions';

const properties: INodeProperties[] = [mediaIdField('File')];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFile'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const id = readWholeNumberParameter.call(this, 'fileId', 'File ID', itemIndex, '');
		// Deleting twice ends in the same state, so a retry after a network fault is harmless.
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: apiPath('media', 'files', id),
			idempotent: true,
			itemIndex,
		});
		return { deleted: true, id };
	});
}
