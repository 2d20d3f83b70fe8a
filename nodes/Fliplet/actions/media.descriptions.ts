import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getAppId, readWholeNumberParameter } from '../helpers/locators';
import { readOrganizationId } from '../helpers/organizationId';
import { appLocator } from './common.descriptions';
import { organizationLocator } from './organization/organization.descriptions';

/** Where media files and folders live: an app's library, an organization's, or a folder. */
export type MediaLocation = 'app' | 'organization' | 'folder';

const at = (...location: MediaLocation[]) => ({ show: { location } });

/**
 * The Location fields of a media operation: an app, an organization or a folder (by ID). A folder
 * also takes its organization when the operation sends it with the folder (`withOrganization`):
 * the media REST docs ask for both when listing a folder.
 */
export function mediaLocationFields(options: {
	folderLabel: string;
	withOrganization: boolean;
}): INodeProperties[] {
	return [
		{
			displayName: 'Location',
			name: 'location',
			type: 'options',
			default: 'app',
			options: [
				{ name: 'App', value: 'app', description: "The app's own media library (its root)" },
				{
					name: 'Organization',
					value: 'organization',
					description: "The organization's media library (its root)",
				},
				{ name: options.folderLabel, value: 'folder', description: 'A folder, by its ID' },
			],
		},
		{ ...appLocator(), displayOptions: at('app') },
		{
			...organizationLocator(),
			displayOptions: at('organization', ...(options.withOrganization ? ['folder' as const] : [])),
		},
		{
			displayName: 'Folder ID',
			name: 'folderId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 4567',
			description: 'The ID of the media folder, as Media Folder → Get Many or Create returns it',
			displayOptions: at('folder'),
		},
	];
}

/**
 * The query parameters (or body fields) that name the location, as the media routes take them:
 * `appId`, `organizationId`, or `folderId` (with `organizationId` when asked for). `folderKey`
 * renames `folderId` (a new folder's parent is `parentId`).
 */
export async function mediaLocation(
	this: IExecuteFunctions,
	itemIndex: number,
	{ withOrganization, folderKey = 'folderId' }: { withOrganization: boolean; folderKey?: string },
): Promise<IDataObject> {
	const location = this.getNodeParameter('location', itemIndex, 'app') as MediaLocation;
	if (location === 'app') return { appId: await getAppId.call(this, itemIndex) };
	if (location === 'organization') {
		return { organizationId: readOrganizationId.call(this, itemIndex) };
	}
	const folderId = readWholeNumberParameter.call(this, 'folderId', 'Folder ID', itemIndex, '');
	return withOrganization
		? { [folderKey]: folderId, organizationId: readOrganizationId.call(this, itemIndex) }
		: { [folderKey]: folderId };
}

/** A media file's or folder's ID field. */
export function mediaIdField(what: 'File' | 'Folder'): INodeProperties {
	return {
		displayName: `${what} ID`,
		name: `${what.toLowerCase()}Id`,
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 4567',
		description:
			what === 'File'
				? "The media file's ID: Media File → Get Many lists it, and an entry's file column has it beside it (e.g. PhotoMediaFileId)"
				: "The media folder's ID, as Media Folder → Get Many or Create returns it",
	};
}
