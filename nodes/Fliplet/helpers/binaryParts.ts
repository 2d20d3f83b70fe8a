import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StreamedFile } from '../transport';
import { excerpt } from './excerpt';
import { unsafeUploadName, visibleName } from './fileNames';

/**
 * An input item's binary property as a streamed multipart file part (see streamedMultipart): its
 * bytes are read from n8n's binary data storage while the request is sent, never held whole.
 * When n8n keeps binary data in the item (its in-memory mode), they are the Buffer it holds. A
 * file name with a path separator, a control character or a direction control is refused for the
 * item (unsafeUploadName): the media library would store it as it is, for every later download.
 */
export async function binaryFilePart(
	context: IExecuteFunctions,
	itemIndex: number,
	property: string,
	binary: IBinaryData,
	part: { name: string; fileName?: string },
): Promise<StreamedFile> {
	const fileName = part.fileName || binary.fileName || `${part.name}.bin`;
	const unsafe = unsafeUploadName(fileName);
	if (unsafe) {
		throw new NodeOperationError(
			context.getNode(),
			`The file name "${excerpt(visibleName(fileName))}" cannot be uploaded: ${unsafe}`,
			{
				itemIndex,
				description:
					"Give the file a plain name (e.g. receipt.pdf): Media File → Upload's File Name option, or the binary data's file name set upstream (e.g. in a Code node). Nothing was sent for this item.",
			},
		);
	}
	const mimeType = binary.mimeType || 'application/octet-stream';
	const id = binary.id;
	if (id) {
		const bytes =
			typeof binary.bytes === 'number'
				? binary.bytes
				: (await context.helpers.getBinaryMetadata(id)).fileSize;
		return {
			name: part.name,
			fileName,
			mimeType,
			bytes,
			open: async () => await context.helpers.getBinaryStream(id),
		};
	}
	return {
		name: part.name,
		fileName,
		mimeType,
		bytes: Buffer.byteLength(binary.data, 'base64'),
		open: async () => await context.helpers.getBinaryDataBuffer(itemIndex, property),
	};
}
