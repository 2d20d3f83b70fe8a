import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { MultipartFile } from '../transport';
import { inputBinary } from './inputBinary';

/** The file parts of an entry insert: each listed binary field of the item, named after its column. */
export async function entryFileParts(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<MultipartFile[]> {
	const files = this.getNodeParameter('files.file', itemIndex, []) as IDataObject[];
	const parts: MultipartFile[] = [];
	for (const file of files) {
		const column = String(file.column ?? '').trim();
		const property = String(file.binaryPropertyName ?? '').trim() || 'data';
		if (!column) {
			throw new NodeOperationError(this.getNode(), 'A file has no column', {
				itemIndex,
				description: 'Give each file the column that should hold its URL (e.g. Photo).',
			});
		}
		const binary = inputBinary(this, itemIndex, property, 'Files: Input Binary Field');
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		parts.push({
			name: column,
			fileName: binary.fileName ?? `${column}.bin`,
			mimeType: binary.mimeType || 'application/octet-stream',
			data,
		});
	}
	return parts;
}
