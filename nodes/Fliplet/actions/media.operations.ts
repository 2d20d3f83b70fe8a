import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { maxResults, takeFirst } from '../helpers/limits';
import { readWholeNumberParameter } from '../helpers/locators';
import { mapItems } from '../helpers/mapItems';
import { listFrom } from '../helpers/responses';
import { apiPath, flipletApiRequest } from '../transport';
import { returnAllOrLimit } from './common.descriptions';
import { mediaLocation, mediaLocationFields } from './media.descriptions';

/** The fields of Media File → Get Many and Media Folder → Get Many. */
export const mediaListProperties = (folderLabel: string): INodeProperties[] => [
	...mediaLocationFields({ folderLabel, withOrganization: true }),
	...returnAllOrLimit(),
];

/**
 * The files or folders of a location (an app's or an organization's top level, or a folder's):
 * `GET v1/media` answers both lists whole; Limit keeps the first ones.
 */
export async function listMedia(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	key: 'files' | 'folders',
) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const qs = await mediaLocation.call(this, itemIndex, { withOrganization: true });
		const max = maxResults.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('media'),
			qs,
			itemIndex,
		});
		return takeFirst(listFrom(this.getNode(), body, key, itemIndex), max);
	});
}

/** Deletes a media file or folder by the ID in `File ID` or `Folder ID`. */
export async function deleteMedia(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	what: 'File' | 'Folder',
) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const id = readWholeNumberParameter.call(
			this,
			`${what.toLowerCase()}Id`,
			`${what} ID`,
			itemIndex,
			'',
		);
		// Deleting twice ends in the same state, so a retry after a network fault is harmless.
		await flipletApiRequest.call(this, {
			method: 'DELETE',
			path: apiPath('media', `${what.toLowerCase()}s`, id),
			idempotent: true,
			itemIndex,
		});
		return { deleted: true, id };
	});
}
