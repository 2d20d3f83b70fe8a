import type { IDataObject } from 'n8n-workflow';

import { jsonEqual } from './equal';
import { textMatchesStored } from './typecast';

/**
 * Whether writing `value` over the stored one changes nothing: the same JSON, or text that is
 * the stored number or boolean once typed ("34" over 34, "true" over true; see textMatchesStored).
 */
function cellUnchanged(stored: unknown, value: unknown): boolean {
	if (jsonEqual(stored, value)) return true;
	return typeof value === 'string' && textMatchesStored(value, stored);
}

/**
 * The row with its text cells equal to a stored number or boolean once typed given as that stored
 * value (the row itself when none is): a replace keeps the types, and an output shows them.
 */
export function withStoredTypes(stored: IDataObject, row: IDataObject): IDataObject {
	const typed = (column: string, value: unknown) =>
		typeof value === 'string' && textMatchesStored(value, stored[column]);
	if (!Object.keys(row).some((column) => typed(column, row[column]))) return row;
	// Built with fromEntries, not by assignment: a column named __proto__ stays a key.
	return Object.fromEntries(
		Object.entries(row).map(([column, value]) => [
			column,
			typed(column, value) ? stored[column] : value,
		]),
	) as IDataObject;
}

/** Whether `row` holds exactly the stored data, cell by cell (see cellUnchanged). */
function sameData(stored: IDataObject, row: IDataObject): boolean {
	const storedColumns = Object.keys(stored).filter((column) => stored[column] !== undefined);
	const rowColumns = Object.keys(row).filter((column) => row[column] !== undefined);
	if (storedColumns.length !== rowColumns.length) return false;
	return rowColumns.every(
		(column) => column in stored && cellUnchanged(stored[column], row[column]),
	);
}

/**
 * What an update must send for `row` to an entry whose stored data is `stored`, or undefined when
 * writing it changes nothing. Rows that merge into the data send only their cells that hold
 * another value (the platform merges them into the rest); rows that replace the data send the
 * whole row unless the whole data is the same. A text cell equal to the stored number or boolean
 * once typed holds the same value (see cellUnchanged).
 */
export function rowChanges(
	stored: IDataObject,
	row: IDataObject,
	merge: boolean,
): IDataObject | undefined {
	if (!merge) return sameData(stored, row) ? undefined : withStoredTypes(stored, row);
	let changed: IDataObject | undefined;
	for (const column in row) {
		if (!cellUnchanged(stored[column], row[column])) (changed ??= {})[column] = row[column];
	}
	return changed;
}
