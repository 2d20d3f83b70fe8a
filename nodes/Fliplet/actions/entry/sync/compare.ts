import type { IDataObject } from 'n8n-workflow';

import { jsonEqual } from './equal';

/**
 * What an update must send for `row` to an entry whose stored data is `stored`, or undefined when
 * writing it changes nothing. Rows that merge into the data send only their cells that hold
 * another value (the platform merges them into the rest); rows that replace the data send the
 * whole row unless the whole data is the same.
 */
export function rowChanges(
	stored: IDataObject,
	row: IDataObject,
	merge: boolean,
): IDataObject | undefined {
	if (!merge) return jsonEqual(stored, row) ? undefined : row;
	let changed: IDataObject | undefined;
	for (const column in row) {
		if (!jsonEqual(stored[column], row[column])) (changed ??= {})[column] = row[column];
	}
	return changed;
}
