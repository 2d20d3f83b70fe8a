import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_FILE_SIZE_MB } from '../helpers/fileDownloads';
import { columnPicker } from './columnPicker.descriptions';

const whenDownloading = { show: { downloadFiles: [true] } };

/**
 * "Download Files", as Airtable's Download Attachments: each file an entry's file columns point to
 * becomes a binary property of its item. Shared by Entry → Get, Get Many and both triggers.
 */
export const downloadFilesFields: INodeProperties[] = [
	{
		displayName: 'Download Files',
		name: 'downloadFiles',
		type: 'boolean',
		default: false,
		description:
			"Whether to download the files in the entries' file columns (a form's photos, signatures, PDFs) into binary properties named after their columns: Photo, or Photo_0, Photo_1… for a column holding a list. Only files on Fliplet's own hosts are downloaded; the item's fileDownloads lists each file and what became of it. Images read through Fliplet's API (private and encrypted files) may come at Fliplet's default size (xlarge, 1980 px on the smallest side): fileDownloads notes them.",
	},
	columnPicker({
		displayName: 'File Columns',
		name: 'fileColumns',
		multiple: true,
		description:
			'Columns that hold file URLs. Empty: every column that has a sibling column named after it plus MediaFileId (e.g. Photo and PhotoMediaFileId), as Fliplet writes them for uploaded files.',
		displayOptions: whenDownloading,
	}),
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSizeMb',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: DEFAULT_MAX_FILE_SIZE_MB,
		description:
			"A larger file is not downloaded: fileDownloads says so and gives its URL. 0 means no limit. Files are streamed to n8n's binary data storage, so even a large one is never held whole in memory when n8n keeps binary data on disk or in its database.",
		displayOptions: whenDownloading,
	},
];
