import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EntryVisit } from './readEntries';

/** Counts the entries a read hands on, and whether any carries a key column. */
export interface KeyColumnGuard {
	visit: EntryVisit;
	/** Stops the run when the read cannot be right (see guardKeyColumns). */
	refuseKeylessRead(this: IExecuteFunctions): void;
	/** How many entries the read handed on so far. */
	entriesRead(): number;
	/** Whether an entry read so far carried a key column. */
	sawKeyColumns(): boolean;
	/** The data of the first entry read that carried every key column (a witness of them). */
	keyedEntry(): IDataObject | undefined;
}

const carries = (data: IDataObject, columns: string[]) =>
	columns.some((column) => data[column] !== undefined);

/**
 * Sync never acts on a read that cannot be right: when the data source has entries and not one
 * entry read carries any key column (not even empty), no row can match, so every row would be
 * inserted again, and mirror mode would plan to delete every entry. That is a misspelt key column,
 * or an answer without the columns asked for (a reading of `attributes` the node did not expect),
 * never a data source to act on.
 */
export function guardKeyColumns(keyColumns: string[], visit: EntryVisit): KeyColumnGuard {
	let read = 0;
	let keyed = false;
	let witness: IDataObject | undefined;
	return {
		visit: (id, data) => {
			read++;
			if (!keyed) keyed = carries(data, keyColumns);
			if (keyed && !witness && keyColumns.every((column) => data[column] !== undefined))
				witness = data;
			visit(id, data);
		},
		entriesRead: () => read,
		sawKeyColumns: () => keyed,
		keyedEntry: () => witness,
		refuseKeylessRead() {
			if (!read || keyed) return;
			throw keylessReadError(this.getNode(), keyColumns, read);
		},
	};
}

/** The refusal of a read of `count` entries where none has a key column (see guardKeyColumns). */
export function keylessReadError(node: INode, keyColumns: string[], count: number) {
	const names = keyColumns.map((column) => `"${column}"`).join(', ');
	return new NodeOperationError(
		node,
		`None of the ${count} entries read has the key column${keyColumns.length > 1 ? 's' : ''} ${names}`,
		{
			itemIndex: 0,
			description: `Nothing was changed. Acting on this read would insert every row again (and in mirror mode delete every entry). Either the key column names do not match the data source's columns (they are case-sensitive), or the API answered without the columns Sync asked for. Check "Key Columns" against the data source's columns; if no entry has a value there yet, fill the key column in the data source first.`,
		},
	);
}
