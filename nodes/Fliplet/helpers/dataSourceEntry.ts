import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { columnList } from './commaList';
import { requireWholeNumber } from './locators';
import { mappedColumns } from './mapperColumns';
import { objectFrom } from './responses';

/**
 * The entry as the node outputs it, the API's own shape: `{id, dataSourceId, createdAt, updatedAt,
 * data}` (plus `joins`, `order`... when the API sent them). The user's columns stay inside `data`,
 * so a column named `id` or `createdAt` never collides with the entry's own fields.
 */
export type EntryOutput = 'entry' | 'columns';

/** The entry, or with "Columns Only" its `data` object alone (the user's columns as stored). */
export function entryAs(entry: IDataObject, output: EntryOutput): IDataObject {
	if (output === 'entry') return entry;
	const data = entry.data;
	return data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : {};
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

/**
 * The columns to write for an item: the mapped columns (typed by their columns, see
 * mappedColumns), or every field of the input item (all of them, `id` included: the item's fields
 * are the user's columns) when set to map automatically, less the fields the user lists under
 * Ignore Fields.
 */
export function getEntryData(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): IDataObject {
	const mode = this.getNodeParameter('columns.mappingMode', itemIndex, 'defineBelow') as string;
	let data: IDataObject;
	if (mode === 'autoMapInputData') {
		const ignored = ignoredFields.call(this, itemIndex);
		data = items[itemIndex].json;
		if (ignored.size) {
			data = Object.fromEntries(Object.entries(data).filter(([field]) => !ignored.has(field)));
		}
	} else data = mappedColumns.call(this, itemIndex);
	return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

/**
 * The input fields Map Automatically leaves out (Options → Ignore Fields): a comma-separated text,
 * or a list (from an expression) whose names may hold commas.
 */
export function ignoredFields(this: IExecuteFunctions, itemIndex: number): Set<string> {
	return new Set(columnList(this.getNodeParameter('options.ignoreFields', itemIndex, '')));
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

/** Why JSON cannot carry a value as it is (NaN would arrive as null), or undefined when it can. */
function unstorable(value: unknown, depth = 0): string | undefined {
	if (typeof value === 'number' && !Number.isFinite(value)) return `the number ${value}`;
	if (typeof value === 'bigint') return 'a BigInt';
	if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
	if (typeof value !== 'object' || value === null || depth > 64) return undefined;
	for (const inner of Object.values(value)) {
		const reason = unstorable(inner, depth + 1);
		if (reason) return reason;
	}
	return undefined;
}

/** The first column of `data` holding a value JSON cannot carry, with why; undefined when none. */
export function findUnstorableColumn(
	data: IDataObject,
): { column: string; reason: string } | undefined {
	for (const column of Object.keys(data)) {
		const reason = unstorable(data[column]);
		if (reason) return { column, reason };
	}
	return undefined;
}

/** Refuses, before sending, an entry with a value that would not be stored as given. */
export function requireStorable(this: IExecuteFunctions, data: IDataObject, itemIndex: number) {
	const found = findUnstorableColumn(data);
	if (!found) return;
	throw new NodeOperationError(
		this.getNode(),
		`Item ${itemIndex}: column "${found.column}" holds ${found.reason}, which cannot be stored`,
		{
			itemIndex,
			description:
				'JSON (what the API stores) has no such value: it would arrive as null or not at all. Change the value (e.g. to text or null) with an Edit Fields node. Nothing was sent for this item.',
		},
	);
}
