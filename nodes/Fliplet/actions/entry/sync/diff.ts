import type { IDataObject } from 'n8n-workflow';

import { jsonEqual } from './equal';
import { rowKey } from './keys';

export type SyncMode = 'insertAndUpdate' | 'insertOnly' | 'mirror';

export interface InputRow {
	itemIndex: number;
	data: IDataObject;
}

export interface ExistingEntry {
	id: number;
	data: IDataObject;
}

export interface DiffOptions {
	keyColumns: string[];
	ignoreKeyCase: boolean;
	mode: SyncMode;
	/** true: an update merges the row's columns into the entry; false: the row replaces its data. */
	merge: boolean;
}

export interface SkippedRow {
	itemIndex: number;
	reason: string;
	key?: string;
}

export interface PlannedInsert {
	itemIndex: number;
	key: string;
	data: IDataObject;
}

export interface PlannedUpdate extends PlannedInsert {
	id: number;
}

export interface PlannedDelete {
	id: number;
	key: string | null;
}

export interface SyncPlan {
	inserts: PlannedInsert[];
	updates: PlannedUpdate[];
	deletes: PlannedDelete[];
	unchanged: number;
	skipped: SkippedRow[];
	existingCount: number;
}

function quoteList(names: Array<string | number>): string {
	return names.map((name) => `"${name}"`).join(', ');
}

/** Rows by key; rows without a key or sharing a key are skipped (all of them: none is guessed right). */
function keyRows(rows: InputRow[], options: DiffOptions) {
	const unique = new Map<string, InputRow>();
	const duplicates = new Map<string, InputRow[]>();
	const skipped: SkippedRow[] = [];
	for (const row of rows) {
		const result = rowKey(row.data, options.keyColumns, options.ignoreKeyCase);
		if ('missing' in result) {
			const plural = result.missing.length > 1 ? 's' : '';
			skipped.push({
				itemIndex: row.itemIndex,
				reason: `Missing key column${plural} ${quoteList(result.missing)}`,
			});
			continue;
		}
		const first = unique.get(result.key);
		const list = duplicates.get(result.key);
		if (list) list.push(row);
		else if (first) {
			duplicates.set(result.key, [first, row]);
			unique.delete(result.key);
		} else unique.set(result.key, row);
	}
	for (const [key, list] of duplicates) {
		for (const row of list) {
			const others = list.filter((other) => other !== row).map((other) => other.itemIndex);
			skipped.push({
				itemIndex: row.itemIndex,
				reason: `Duplicate key (also in item ${others.join(', ')})`,
				key,
			});
		}
	}
	skipped.sort((a, b) => a.itemIndex - b.itemIndex);
	return { unique, duplicateKeys: new Set(duplicates.keys()), skipped };
}

/** The first entry of each key; later entries with the same key and entries without a key are strays. */
function keyEntries(entries: ExistingEntry[], options: DiffOptions) {
	const byKey = new Map<string, ExistingEntry>();
	const strays: PlannedDelete[] = [];
	for (const entry of entries) {
		const result = rowKey(entry.data, options.keyColumns, options.ignoreKeyCase);
		if ('missing' in result) strays.push({ id: entry.id, key: null });
		else if (byKey.has(result.key)) strays.push({ id: entry.id, key: result.key });
		else byKey.set(result.key, entry);
	}
	return { byKey, strays };
}

function isChanged(entry: ExistingEntry, row: IDataObject, merge: boolean): boolean {
	if (!merge) return !jsonEqual(entry.data, row);
	return Object.keys(row).some((column) => !jsonEqual(entry.data[column], row[column]));
}

/**
 * What Sync must send to make the data source match the rows: new keys to insert, changed rows
 * to update (by entry id) and, in mirror mode, entries whose key is not among the rows to delete.
 */
export function diffRows(
	rows: InputRow[],
	entries: ExistingEntry[],
	options: DiffOptions,
): SyncPlan {
	const { unique, duplicateKeys, skipped } = keyRows(rows, options);
	const { byKey, strays } = keyEntries(entries, options);
	const plan: SyncPlan = {
		inserts: [],
		updates: [],
		deletes: [],
		unchanged: 0,
		skipped,
		existingCount: entries.length,
	};

	for (const [key, row] of unique) {
		const entry = byKey.get(key);
		if (!entry) plan.inserts.push({ itemIndex: row.itemIndex, key, data: row.data });
		else if (options.mode === 'insertOnly' || !isChanged(entry, row.data, options.merge))
			plan.unchanged++;
		else plan.updates.push({ itemIndex: row.itemIndex, key, id: entry.id, data: row.data });
	}

	if (options.mode === 'mirror') {
		for (const [key, entry] of byKey) {
			if (!unique.has(key) && !duplicateKeys.has(key)) plan.deletes.push({ id: entry.id, key });
		}
		// A second entry with a row's key is a duplicate the mirror removes; one whose key is
		// ambiguous in the input is left alone, like the rows themselves.
		for (const stray of strays) {
			if (stray.key === null || !duplicateKeys.has(stray.key)) plan.deletes.push(stray);
		}
		plan.deletes.sort((a, b) => a.id - b.id);
	}
	return plan;
}
