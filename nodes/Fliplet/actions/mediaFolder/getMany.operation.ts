import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { mediaLocation, mediaLocationFields } from '../media.descriptions';

const properties: INodeProperties[] = [
	...mediaLocationFields({ folderLabel: 'Folder (Its Subfolders)', withOrganization: true }),
	...returnAllOrLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFolder'], operation: ['getMany'] } },
	properties,
);

/** The folders of a location (the top-level ones of an app or organization, or a folder's subfolders). */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const qs = await mediaLocation.call(this, itemIndex, { withOrganization: true });
		const max = maxResults.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('media'),
			qs,
			itemIndex,
		});
		return takeFirst(listFrom(this.getNode(), body, 'folders', itemIndex), max);
	});
}
