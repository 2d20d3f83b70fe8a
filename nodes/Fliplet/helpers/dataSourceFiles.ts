import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StreamedFile } from '../transport';
import { binaryFilePart } from './binaryParts';
import { excerpt } from './excerpt';
import { inputBinary } from './inputBinary';

/**
 * The file parts of an entry insert or update: each listed binary field of the item, named after
 * its column, streamed from n8n's binary data when the request is sent. A column given twice is
 * refused: the platform would keep only one of its files.
 */
export async function entryFileParts(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<StreamedFile[]> {
	const files = this.getNodeParameter('files.file', itemIndex, []) as IDataObject[];
	const parts: StreamedFile[] = [];
	const columns = new Set<string>();
	for (const file of files) {
		const column = String(file.column ?? '').trim();
		const property = String(file.binaryPropertyName ?? '').trim() || 'data';
		if (!column) {
			throw new NodeOperationError(this.getNode(), 'A file has no column', {
				itemIndex,
				description: 'Give each file the column that should hold its URL (e.g. Photo).',
			});
		}
		if (columns.has(column)) {
			throw new NodeOperationError(
				this.getNode(),
				`The column "${excerpt(column)}" is given two files`,
				{
					itemIndex,
					description:
						'Give each column one file: a column holds the URL of one uploaded file. Nothing was sent for this item.',
				},
			);
		}
		columns.add(column);
		const binary = inputBinary(this, itemIndex, property, 'Files: Input Binary Field');
		parts.push(await binaryFilePart(this, itemIndex, property, binary, { name: column }));
	}
	return parts;
}

/** Multipart text parts of an entry's columns: strings as they are, other values as JSON. */
export function textParts(data: IDataObject) {
	return Object.entries(data).map(([name, value]) => ({
		name,
		value: typeof value === 'string' ? value : JSON.stringify(value),
	}));
}
