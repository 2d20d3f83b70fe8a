import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

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

/** A truthy value, as the file manager tests a parent or an app: `null`, 0 and '' are none. */
const isSet = (value: unknown) => Boolean(value);

/**
 * Whether a listed file or folder is at the location asked for, as Studio's file manager filters
 * `GET v1/media` on its side (`Fliplet/fliplet-widget-file-manager: js/interface.js`), since the
 * list may also hold what is below the root: an app's root keeps files without `mediaFolderId` and
 * folders without a parent; an organization's root keeps items with neither an `appId` nor a
 * parent. A folder's parent is `parentFolderId` (the file manager's filter) or `parentId` (the
 * media REST docs and its moves). A folder's list keeps what names no other parent.
 */
function isAtLocation(item: IDataObject, key: 'files' | 'folders', location: IDataObject): boolean {
	const parents = key === 'files' ? [item.mediaFolderId] : [item.parentFolderId, item.parentId];
	if (location.folderId !== undefined) {
		return parents.every(
			(parent) => !isSet(parent) || String(parent) === String(location.folderId),
		);
	}
	if (parents.some(isSet)) return false;
	return location.appId !== undefined || !isSet(item.appId);
}

/**
 * The files or folders of a location (an app's or an organization's top level, or a folder's):
 * `GET v1/media` answers both lists whole, and may hold more than the location (isAtLocation);
 * Limit keeps the first ones of the location's own.
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
		const listed = listFrom(this.getNode(), body, key, itemIndex);
		return takeFirst(
			listed.filter((item) => isAtLocation(item, key, qs)),
			max,
		);
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
