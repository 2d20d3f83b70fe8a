import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { binaryFilePart } from '../../helpers/binaryParts';
import { inputBinary } from '../../helpers/inputBinary';
import { mapItemsOnce } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest, streamedMultipart } from '../../transport';
import { mediaLocation, mediaLocationFields } from '../media.descriptions';

const properties: INodeProperties[] = [
	...mediaLocationFields({ folderLabel: 'Folder', withOrganization: false }),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the file to upload',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. receipt.pdf',
				description:
					"The name the file gets in Fliplet (default: the binary data's file name). Keep its extension: Fliplet refuses files it cannot type.",
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mediaFile'], operation: ['upload'] } },
	properties,
);

const UPLOADED = { noun: 'file', done: 'uploaded' };
/** The multipart parts of one file, as the media REST docs name them. */
const FILE_PART = 'files[0]';
const NAME_PART = 'name[0]';

/**
 * `POST v1/media/files` with the location as query parameters and the file as the multipart part
 * `files[0]` named by `name[0]`, as the media REST docs show it; the answer is `{files: [...]}`.
 * The file is streamed from n8n's binary data. An upload creates a file, so it is never sent twice
 * on its own (nor by Retry On Fail).
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, UPLOADED, async (itemIndex) => {
		const qs = await mediaLocation.call(this, itemIndex, { withOrganization: false });
		const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
		const binary = inputBinary(this, itemIndex, property, 'Input Binary Field');
		const given = String(this.getNodeParameter('options.fileName', itemIndex, '') ?? '').trim();
		const file = await binaryFilePart(this, itemIndex, property, binary, {
			name: FILE_PART,
			fileName: given || undefined,
		});
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('media', 'files'),
			qs,
			multipart: streamedMultipart([{ name: NAME_PART, value: file.fileName }], [file]),
			itemIndex,
		});
		const [uploaded] = listFrom(this.getNode(), body, 'files', itemIndex);
		if (uploaded) return uploaded;
		throw new NodeOperationError(
			this.getNode(),
			'Unexpected response from Fliplet: no file in it',
			{
				itemIndex,
				description:
					'Fliplet accepted the upload but listed no file in its answer, so the file was most likely stored. Check the media library before running this item again (a second run uploads a second copy), and please report the response.',
			},
		);
	});
}
