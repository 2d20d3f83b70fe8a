import type { IDataObject } from 'n8n-workflow';

import type { ColumnType } from '../../../helpers/columnTypes';
import { typecastValue, valueForColumn } from '../../../helpers/spreadsheetText';

/**
 * A copy of the row with its top-level text values typecast. Built with fromEntries, not by
 * assignment: a column named __proto__ stays a key (refused before sending), not the prototype.
 */
export function typecastRow(data: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(data).map(([column, value]) => [column, typecastValue(value)]),
	) as IDataObject;
}

/**
 * Whether a text cell holds what is stored once typed like the stored value: "34" for 34, "TRUE"
 * for true. A spreadsheet re-read as text then changes nothing.
 */
export function textMatchesStored(text: string, stored: unknown): boolean {
	if (typeof stored !== 'number' && typeof stored !== 'boolean') return false;
	return typecastValue(text) === stored;
}

/** The columns whose stored values are all numbers or all booleans: the types text is written as. */
export type ColumnTypes = ReadonlyMap<string, ColumnType>;

/**
 * The row with each text cell typed as its column holds values (see valueForColumn): the row
 * itself when no cell changes, else a copy (the input items are never changed). Built with
 * fromEntries for the same reason as typecastRow.
 */
export function rowForColumns(row: IDataObject, types: ColumnTypes): IDataObject {
	let changed = false;
	for (const column in row) {
		if (valueForColumn(row[column], types.get(column)) !== row[column]) {
			changed = true;
			break;
		}
	}
	if (!changed) return row;
	return Object.fromEntries(
		Object.entries(row).map(([column, value]) => [
			column,
			valueForColumn(value, types.get(column)),
		]),
	) as IDataObject;
}

/**
 * Whether the row holds text that a column of numbers or booleans would store typed, in a column
 * whose type `known` does not say: only then can learning more types change what is written.
 */
export function hasUntypedText(row: IDataObject, known: ColumnTypes): boolean {
	for (const column in row) {
		const value = row[column];
		if (typeof value !== 'string' || known.has(column)) continue;
		if (typecastValue(value) !== value) return true;
	}
	return false;
}
