import type { IDataObject } from 'n8n-workflow';

import type { Comparer, EntryDigest } from './compare';
import { rowKey } from './keys';

export type SyncMode = 'insertAndUpdate' | 'insertOnly' | 'mirror';

/** The input rows: row `i` is the data of input item `i`. */
export type InputRows = IDataObject[];

/** An entry as the diff keeps it: its id, its key (null without one) and a digest of its data. */
export interface ExistingEntry {
	id: number;
	key: string | null;
	digest: EntryDigest;
}

export interface DiffOptions {
	keyColumns: string[];
	ignoreKeyCase: boolean;
	mode: SyncMode;
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
function keyRows(rows: InputRows, options: DiffOptions) {
	// Item indexes by key: numbers, so a large input costs little beside its own data.
	const unique = new Map<string, number>();
	const duplicates = new Map<string, number[]>();
	const skipped: SkippedRow[] = [];
	for (let row = 0; row < rows.length; row++) {
		const result = rowKey(rows[row], options.keyColumns, options.ignoreKeyCase);
		if ('missing' in result) {
			const plural = result.missing.length > 1 ? 's' : '';
			skipped.push({
				itemIndex: row,
				reason: `Missing key column${plural} ${quoteList(result.missing)}`,
			});
			continue;
		}
		const first = unique.get(result.key);
		const list = duplicates.get(result.key);
		if (list) list.push(row);
		else if (first !== undefined) {
			duplicates.set(result.key, [first, row]);
			unique.delete(result.key);
		} else unique.set(result.key, row);
	}
	for (const [key, list] of duplicates) {
		for (const row of list) {
			const others = list.filter((other) => other !== row);
			skipped.push({
				itemIndex: row,
				reason: `Duplicate key (also in item ${others.join(', ')})`,
				key,
			});
		}
	}
	skipped.sort((a, b) => a.itemIndex - b.itemIndex);
	return { unique, duplicateKeys: new Set(duplicates.keys()), skipped };
}

export function toExistingEntry(
	id: number,
	data: IDataObject,
	options: DiffOptions,
	comparer: Comparer,
): ExistingEntry {
	const result = rowKey(data, options.keyColumns, options.ignoreKeyCase);
	return { id, key: 'key' in result ? result.key : null, digest: comparer.digest(data) };
}

/** The first entry of each key; later entries with the same key and entries without a key are strays. */
function keyEntries(entries: ExistingEntry[]) {
	const byKey = new Map<string, ExistingEntry>();
	const strays: PlannedDelete[] = [];
	for (const entry of entries) {
		if (entry.key !== null && !byKey.has(entry.key)) byKey.set(entry.key, entry);
		else strays.push({ id: entry.id, key: entry.key });
	}
	return { byKey, strays };
}

/**
 * What Sync must send to make the data source match the rows: new keys to insert, changed rows
 * to update (by entry id) and, in mirror mode, entries whose key is not among the rows to delete.
 */
export function diffRows(
	rows: InputRows,
	entries: ExistingEntry[],
	options: DiffOptions,
	comparer: Comparer,
): SyncPlan {
	const { unique, duplicateKeys, skipped } = keyRows(rows, options);
	const { byKey, strays } = keyEntries(entries);
	const plan: SyncPlan = {
		inserts: [],
		updates: [],
		deletes: [],
		unchanged: 0,
		skipped,
		existingCount: entries.length,
	};

	for (const [key, itemIndex] of unique) {
		const entry = byKey.get(key);
		const data = rows[itemIndex];
		if (!entry) plan.inserts.push({ itemIndex, key, data });
		else if (options.mode === 'insertOnly' || !comparer.isChanged(entry.digest, data))
			plan.unchanged++;
		else plan.updates.push({ itemIndex, key, id: entry.id, data });
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
