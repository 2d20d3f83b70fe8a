import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requireWholeNumber } from './locators';
import { objectFrom } from './responses';

/** `{id, ...data}`: the entry's columns with its id, the shape most workflows want. */
export function simplifyEntry(entry: IDataObject): IDataObject {
	const data = (entry.data && typeof entry.data === 'object' ? entry.data : {}) as IDataObject;
	const simple: IDataObject = { id: entry.id, ...data };
	if (entry.joins !== undefined) simple.joins = entry.joins;
	return simple;
}

/** The entry of an insert or update answer (`{entry}` or the bare entry), refusing anything else. */
export function entryFrom(this: IExecuteFunctions, body: unknown, itemIndex: number): IDataObject {
	const entry = objectFrom(body, 'entry');
	if (entry.id === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'Unexpected response from Fliplet: no entry in it',
			{
				itemIndex,
				description:
					'The API answered in a shape this node does not know. Please report it with the response.',
			},
		);
	}
	return entry;
}

export function getEntryId(this: IExecuteFunctions, itemIndex: number): number {
	const value = String(this.getNodeParameter('entryId', itemIndex, '')).trim();
	return requireWholeNumber.call(this, value, 'Entry ID', itemIndex);
}

/** An input item's fields as columns: items read from a data source carry the entry's own "id", which is not a column. */
export function columnsOfItem(json: IDataObject): IDataObject {
	if (!Object.prototype.hasOwnProperty.call(json, 'id')) return json;
	const columns = { ...json };
	delete columns.id;
	return columns;
}

/**
 * The columns to write for an item: the mapped columns, or every field of the input item (but its
 * entry "id") when the mapper is set to map automatically.
 */
export function getEntryData(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): IDataObject {
	const mode = this.getNodeParameter('columns.mappingMode', itemIndex, 'defineBelow') as string;
	let data: IDataObject;
	if (mode === 'autoMapInputData') data = columnsOfItem(items[itemIndex].json);
	else data = (this.getNodeParameter('columns.value', itemIndex, {}) ?? {}) as IDataObject;
	return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

/** Refuses to write an entry without any column (nothing mapped, or an empty input item). */
export function requireColumns(
	this: IExecuteFunctions,
	data: IDataObject,
	itemIndex: number,
	hasFiles = false,
): void {
	if (Object.keys(data).length || hasFiles) return;
	throw new NodeOperationError(this.getNode(), 'No column values to write', {
		itemIndex,
		description:
			'Map at least one column under "Columns", or choose "Map Automatically" with input items that have fields.',
	});
}
