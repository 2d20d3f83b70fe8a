import type { IDataObject } from 'n8n-workflow';

import { jsonEqual } from './equal';

/**
 * Whether writing `row` changes an entry whose stored data is `stored`. Rows that merge into the
 * data change it when one of their own columns holds another value; rows that replace the data
 * change it unless the whole data is the same.
 */
export function rowChanges(stored: IDataObject, row: IDataObject, merge: boolean): boolean {
	if (!merge) return !jsonEqual(stored, row);
	for (const column in row) if (!jsonEqual(stored[column], row[column])) return true;
	return false;
}
