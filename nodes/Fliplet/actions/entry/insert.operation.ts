import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getEntryData, requireColumns, requireStorable } from '../../helpers/dataSourceEntry';
import { entryFileParts, textParts } from '../../helpers/dataSourceFiles';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest, streamedMultipart } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { hintEntryShapedItems } from '../../helpers/entryShapeHint';
import { entryColumnsField, entryFilesField, entryWriteOptions } from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	entryColumnsField,
	entryFilesField(
		"Binary files of the input item to upload with the entry. The column gets the file's URL, and a sibling column named after it plus MediaFileId (e.g. PhotoMediaFileId) its media file ID.",
	),
	entryWriteOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['insert'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	hintEntryShapedItems.call(this, items);
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const data = getEntryData.call(this, items, itemIndex);
		const files = await entryFileParts.call(this, itemIndex);
		requireColumns.call(this, data, itemIndex, files.length > 0);
		requireStorable.call(this, data, itemIndex);
		const request = {
			method: 'PUT' as const,
			path: dataSourcePath(target, 'data'),
			qs: target.qs,
			itemIndex,
		};
		const body = files.length
			? await flipletApiRequest.call(this, {
					...request,
					multipart: streamedMultipart(textParts(data), files),
				})
			: await flipletApiRequest.call(this, { ...request, body: data });
		return insertedEntry.call(this, body, itemIndex);
	});
}

/**
 * The written entry: the answer itself, or a list holding only it (Fliplet's own QA code accepts
 * both). Any other answer comes after the write, so the error says not to run the item again.
 */
function insertedEntry(this: IExecuteFunctions, body: unknown, itemIndex: number): IDataObject {
	const answer = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
	const entry = objectFrom(answer, 'entry');
	if (entry.id !== undefined) return entry;
	throw new NodeOperationError(this.getNode(), 'Unexpected response from Fliplet: no entry in it', {
		itemIndex,
		description:
			'Fliplet accepted the insert but answered in a shape this node does not know, so the entry was most likely written. Check the data source before running this item again (a second run adds a second copy), and please report the response.',
	});
}
