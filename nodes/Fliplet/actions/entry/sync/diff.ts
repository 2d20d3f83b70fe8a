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
	/** The stored value of the timestamp column, when one is set. */
	stamp?: unknown;
}

export interface DiffOptions {
	keyColumns: string[];
	ignoreKeyCase: boolean;
	mode: SyncMode;
	timestampColumn?: string;
	deleteColumn?: string;
	updateAll?: boolean;
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
	/** Deleted because its row's delete flag is set (not because mirror found no row for it). */
	flagged?: boolean;
}

export interface SyncPlan {
	inserts: PlannedInsert[];
	updates: PlannedUpdate[];
	deletes: PlannedDelete[];
	unchanged: number;
	skipped: SkippedRow[];
	existingCount: number;
	/** Rows flagged for deletion whose key has no entry: left out. */
	flaggedAbsent: number;
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
	const entry: ExistingEntry = {
		id,
		key: 'key' in result ? result.key : null,
		digest: options.updateAll ? 0 : comparer.digest(data),
	};
	if (options.timestampColumn !== undefined) entry.stamp = data[options.timestampColumn];
	return entry;
}

const FLAGS = new Set(['true', '1', 'yes']);

/** Whether a delete-flag cell is set: true, 1, or "true" / "1" / "yes" in any case. */
export function isFlagSet(value: unknown): boolean {
	if (value === true || value === 1) return true;
	return typeof value === 'string' && FLAGS.has(value.trim().toLowerCase());
}

/** A timestamp cell as a number to compare: a number, a numeric text, or a date text. */
export function stampOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	const number = Number(text);
	if (Number.isFinite(number)) return number;
	const time = Date.parse(text);
	return Number.isNaN(time) ? undefined : time;
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
		flaggedAbsent: 0,
	};
	const { timestampColumn, deleteColumn } = options;

	for (const [key, itemIndex] of unique) {
		const entry = byKey.get(key);
		const data = rows[itemIndex];
		if (deleteColumn !== undefined && isFlagSet(data[deleteColumn])) {
			if (entry) plan.deletes.push({ id: entry.id, key, flagged: true });
			else plan.flaggedAbsent++;
			continue;
		}
		if (!entry) {
			plan.inserts.push({ itemIndex, key, data });
			continue;
		}
		if (options.mode === 'insertOnly') {
			plan.unchanged++;
			continue;
		}
		if (timestampColumn !== undefined) {
			const rowTime = stampOf(data[timestampColumn]);
			if (rowTime === undefined) {
				plan.skipped.push({
					itemIndex,
					key,
					reason: `No readable time in timestamp column "${timestampColumn}"`,
				});
				continue;
			}
			const storedTime = stampOf(entry.stamp);
			if (storedTime !== undefined && rowTime <= storedTime) {
				plan.unchanged++;
				continue;
			}
		}
		if (!options.updateAll && !comparer.isChanged(entry.digest, data)) plan.unchanged++;
		else plan.updates.push({ itemIndex, key, id: entry.id, data });
	}
	plan.skipped.sort((a, b) => a.itemIndex - b.itemIndex);

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
