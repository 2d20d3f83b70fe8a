import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readWholeNumberParameter } from '../../helpers/locators';
import { asNodeError } from '../../helpers/nodeError';
import { mapItemsToExecutionData } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import {
	apiPath,
	downloadBinary,
	FileNotFetchedError,
	flipletApiRequest,
	type FileDownloadRequest,
} from '../../transport';
import { mediaIdField } from '../media.descriptions';

const properties: INodeProperties[] = [
	mediaIdField('File'),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the output binary field to put the file in',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Image Format',
				name: 'format',
				type: 'options',
				default: 'jpg',
				options: [
					{ name: 'JPEG', value: 'jpg' },
					{ name: 'WebP', value: 'webp' },
				],
				description: 'Have Fliplet convert an image to this format',
			},
			{
				displayName: 'Image Quality',
				name: 'quality',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 80,
				description:
					'Compression quality from 1 to 100 of a converted image (Fliplet defaults to 88 for JPEG and 80 for WebP)',
			},
			{
				displayName: 'Image Size',
				name: 'size',
				type: 'string',
				default: 'large',
				placeholder: 'e.g. medium, or 640>480',
				description:
					'Have Fliplet resize an image: small (640 px), medium (960), large (1366), xlarge (1980), xxlarge (2560), xxxlarge (3840) on its smallest side, or a geometry such as 320>? or 640>480',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFile'], operation: ['download'] } },
	properties,
);

/** The image transforms asked for, as the contents route takes them (none: the file as stored). */
function transformOf(options: IDataObject): IDataObject {
	const qs: IDataObject = {};
	for (const key of ['size', 'format', 'quality']) {
		const value = options[key];
		if (value !== undefined && value !== null && String(value).trim() !== '') {
			qs[key] = typeof value === 'string' ? value.trim() : value;
		}
	}
	return qs;
}

/**
 * The file's metadata (`GET v1/media/files/<id>`, as the platform's JS API reads one), then its
 * bytes, streamed into n8n's binary data: from the file's own URL (a public file's CDN address, or
 * the API's contents route for a private one), or, with an image transform, from
 * `GET v1/media/files/<id>/contents` with `size`, `format` and `quality`.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsToExecutionData.call(this, items, async (itemIndex) => {
		const id = readWholeNumberParameter.call(this, 'fileId', 'File ID', itemIndex, '');
		const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
		const transform = transformOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject);
		const file = objectFrom(
			await flipletApiRequest.call(this, {
				method: 'GET',
				path: apiPath('media', 'files', id),
				itemIndex,
			}),
			'file',
		);
		const named: FileDownloadRequest = {
			itemIndex,
			fileName: typeof file.name === 'string' ? file.name : undefined,
			mimeType: typeof file.contentType === 'string' ? file.contentType : undefined,
		};
		const contents = { ...named, path: apiPath('media', 'files', id, 'contents'), qs: transform };
		let downloaded;
		if (Object.keys(transform).length || typeof file.url !== 'string') {
			downloaded = await downloadBinary.call(this, contents);
		} else {
			try {
				downloaded = await downloadBinary.call(this, { ...named, url: file.url });
			} catch (error) {
				// A URL the node does not fetch from: the API host serves every file too.
				if (!(error instanceof FileNotFetchedError))
					throw asNodeError(this.getNode(), error, itemIndex);
				downloaded = await downloadBinary.call(this, contents);
			}
		}
		return [{ json: file, binary: { [property]: downloaded.binary } }];
	});
}
