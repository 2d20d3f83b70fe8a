import type { IDataObject } from 'n8n-workflow';

import {
	COLUMN_TYPE_SAMPLE,
	sampledColumnType,
	type ColumnType,
} from '../../../helpers/columnTypes';
import { typesText } from '../../../helpers/spreadsheetText';
import { rowChanges } from './compare';
import { KeyIndex } from './keyIndex';
import { rowKey } from './keys';
import { inSlices } from './slices';
import { rowForColumns, type ColumnTypes } from './typecast';

export type SyncMode = 'insertAndUpdate' | 'insertOnly' | 'updateOnly' | 'mirror';

/** The input rows: row `i` is the data of input item `i`. */
export type InputRows = IDataObject[];

export interface DiffOptions {
	keyColumns: string[];
	ignoreKeyCase: boolean;
	mode: SyncMode;
	timestampColumn?: string;
	deleteColumn?: string;
	updateAll?: boolean;
	/** Rows merge into the entry's data (else they replace it): what a change is. */
	merge: boolean;
	/**
	 * A key found on several entries updates every one of them (Create or Update, Update by
	 * Columns to Match On): none is a stray, so none is repaired away after the commits.
	 */
	everyMatch?: boolean;
	/**
	 * Rows sharing a key are applied in input order as one write (the last row's values stand)
	 * instead of being skipped.
	 */
	foldSharedKeys?: boolean;
	/** Column types known beside the entries read (e.g. the column mapper's), see planColumnTypes. */
	columnTypes?: ColumnTypes;
}

export interface SkippedRow {
	itemIndex: number;
	reason: string;
	key?: string;
}

export interface PlannedUpdate {
	itemIndex: number;
	key: string;
	id: number;
	/** The row. */
	data: IDataObject;
	/** What the update sends: the cells that changed when rows merge, else the whole row. */
	cells: IDataObject;
}

export interface PlannedDelete {
	id: number;
	key: string | null;
	/** Deleted because its row's delete flag is set (not because mirror found no row for it). */
	flagged?: boolean;
}

export interface SyncPlan {
	/**
	 * Item indexes of the rows to insert, in input order: numbers, since a first load can insert
	 * millions of rows (their data is `rows[i]`, their key `keys[i]`).
	 */
	inserts: number[];
	updates: PlannedUpdate[];
	deletes: PlannedDelete[];
	unchanged: number;
	skipped: SkippedRow[];
	existingCount: number;
	/** Rows flagged for deletion whose key has no entry: left out. */
	flaggedAbsent: number;
	/** Item indexes of the rows whose key has no entry, in Only Update Existing mode (never inserted). */
	notFound: number[];
	/** Rows whose key the read found on an entry. */
	matched: number;
	/**
	 * Rows whose key the read found on more than one entry (outside mirror mode, which deletes the
	 * extra entries itself): their keys are checked and repaired after the commits, like new keys.
	 */
	shared: number[];
	rows: InputRows;
	/** The key of each row, undefined for a row without one. */
	keys: ReadonlyArray<string | undefined>;
	/**
	 * Rows folded into an earlier row of the same key (see DiffOptions.foldSharedKeys): item index
	 * to the item index whose row carries the write of both.
	 */
	foldedInto: Map<number, number>;
	/** The column types the new values were written by (see planColumnTypes). */
	columnTypes: ColumnTypes;
}

function quoteList(names: Array<string | number>): string {
	return names.map((name) => `"${name}"`).join(', ');
}

/** A row's marks while diffing. */
const MATCHED = 1;
/** Its key is also another row's: neither is used (none is guessed right). */
const DUPLICATE = 2;
/** Matched, and its key was found on another entry too. */
const SHARED = 3;
/** Its key is also an earlier row's, which carries the write of both (foldSharedKeys). */
const FOLDED = 4;

/** The rows' keys and an index of them, with the rows skipped for no key or a shared key. */
export interface KeyedRows {
	keys: ReadonlyArray<string | undefined>;
	index: KeyIndex;
	marks: Uint8Array;
	skipped: SkippedRow[];
	/** The rows the diff is about, when not all of them (see keyedSubset). */
	items?: number[];
	/** Rows folded into an earlier row of the same key, see SyncPlan.foldedInto. */
	foldedInto: Map<number, number>;
}

/**
 * The rows of one key applied in input order as one row: merged, each row's cells over the ones
 * before, or (when rows replace the entry's data) the last row. A new object: the input items are
 * never changed.
 */
function foldRows(rows: InputRows, group: number[], merge: boolean) {
	const last = rows[group[group.length - 1]];
	// Built with fromEntries, not by assignment: a column named __proto__ stays a key.
	if (!merge) return Object.fromEntries(Object.entries(last)) as IDataObject;
	return Object.fromEntries(group.flatMap((row) => Object.entries(rows[row]))) as IDataObject;
}

/**
 * Keys the rows a slice at a time (`add`), then marks the rows that share a key (`finish`): both
 * are skipped, or with foldSharedKeys the first carries the write of all of them.
 */
function rowKeying(rows: InputRows, options: DiffOptions) {
	const keys: Array<string | undefined> = new Array(rows.length);
	const index = new KeyIndex(keys, rows.length);
	const marks = new Uint8Array(rows.length);
	// The rows of each key that several rows have, by the first of them.
	const duplicates = new Map<number, number[]>();
	const skipped: SkippedRow[] = [];
	return {
		add(from: number, to: number) {
			for (let row = from; row < to; row++) {
				const result = rowKey(rows[row], options.keyColumns, options.ignoreKeyCase);
				if ('missing' in result) {
					const plural = result.missing.length > 1 ? 's' : '';
					skipped.push({
						itemIndex: row,
						reason: `Missing key column${plural} ${quoteList(result.missing)}`,
					});
					continue;
				}
				keys[row] = result.key;
				const first = index.add(row);
				if (first === row) continue;
				const list = duplicates.get(first);
				if (list) list.push(row);
				else duplicates.set(first, [first, row]);
			}
		},
		finish(): KeyedRows {
			const foldedInto = new Map<number, number>();
			if (options.foldSharedKeys) {
				for (const [first, list] of duplicates) {
					rows[first] = foldRows(rows, list, options.merge);
					for (const row of list.slice(1)) {
						marks[row] = FOLDED;
						foldedInto.set(row, first);
					}
				}
				return { keys, index, marks, skipped, foldedInto };
			}
			for (const list of duplicates.values()) {
				for (const row of list) {
					marks[row] = DUPLICATE;
					const others = list.filter((other) => other !== row);
					skipped.push({
						itemIndex: row,
						reason: `Duplicate key (also in item ${others.join(', ')})`,
						key: keys[row],
					});
				}
			}
			return { keys, index, marks, skipped, foldedInto };
		},
	};
}

/**
 * The keys a diff of `keyed` can use, each once: those of the keyed rows that share their key
 * with no other row (rows that do are skipped, so entries holding their key change nothing).
 */
export function usableKeys(keyed: KeyedRows): string[] {
	const usable: string[] = [];
	const take = (row: number) => {
		const key = keyed.keys[row];
		const mark = keyed.marks[row];
		if (key !== undefined && mark !== DUPLICATE && mark !== FOLDED) usable.push(key);
	};
	if (keyed.items) for (const row of keyed.items) take(row);
	else for (let row = 0; row < keyed.keys.length; row++) take(row);
	return usable;
}

/**
 * The rows' keys and an index of them; rows without a key or sharing a key are skipped. Between
 * slices of rows it awaits `pause` (see inSlices).
 */
export async function keyRowsPausing(
	rows: InputRows,
	options: DiffOptions,
	pause: () => Promise<void>,
): Promise<KeyedRows> {
	const keying = rowKeying(rows, options);
	await inSlices(rows.length, keying.add, pause);
	return keying.finish();
}

/**
 * The keyed rows `items` (distinct keys, e.g. the rows of one commit), for a diff of those rows
 * alone: the others are neither inserted nor compared.
 */
export function keyedSubset(keys: ReadonlyArray<string | undefined>, items: number[]): KeyedRows {
	const index = new KeyIndex(keys, items.length);
	for (const item of items) index.add(item);
	const marks = new Uint8Array(keys.length);
	return { keys, index, marks, skipped: [], items, foldedInto: new Map() };
}

function keyRows(rows: InputRows, options: DiffOptions): KeyedRows {
	const keying = rowKeying(rows, options);
	keying.add(0, rows.length);
	return keying.finish();
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

/** An entry as Sync reads it: its id and (the read columns of) its data. */
export interface StoredEntry {
	id: number;
	data: IDataObject;
}

/** The diff of the rows with the data source, fed one entry at a time as the read goes. */
export interface EntryDiff {
	/** One entry of the data source; entries come in id order, so the first of a key is the oldest. */
	visit(id: number, data: IDataObject): void;
	/** The plan, once every entry was visited. */
	finish(): SyncPlan;
}

/**
 * What Sync must send to make the data source match the rows: new keys to insert, changed rows to
 * update (by entry id) and, in mirror mode, entries whose key is not among the rows to delete.
 * Each entry is compared with its row as it arrives and then dropped, so the read never holds the
 * data source in memory. The first entry of a key is the one a row updates; later entries of that
 * key and entries without a key are strays, which mirror deletes unless their key is ambiguous in
 * the input (then they are left alone, like the rows themselves). Other modes list the rows whose
 * key has strays (`shared`), for the check of keys on several entries after the commits.
 * `onRowEntry` hears of each entry holding a row's key (row, entry id), as the diff keys it.
 */
export function startDiff(
	rows: InputRows,
	options: DiffOptions,
	keyed: KeyedRows = keyRows(rows, options),
	onRowEntry?: (row: number, id: number) => void,
): EntryDiff {
	const { keys, index, marks, skipped, items, foldedInto } = keyed;
	const { timestampColumn, deleteColumn, mode, everyMatch } = options;
	const mirror = mode === 'mirror';
	// The data of the first entries read: the types of their columns (see planColumnTypes).
	const sample: IDataObject[] = [];
	const plan: SyncPlan = {
		inserts: [],
		updates: [],
		deletes: [],
		unchanged: 0,
		skipped,
		existingCount: 0,
		flaggedAbsent: 0,
		notFound: [],
		matched: 0,
		shared: [],
		rows,
		keys,
		foldedInto,
		columnTypes: new Map(),
	};

	const compare = (itemIndex: number, key: string, id: number, stored: IDataObject) => {
		const data = rows[itemIndex];
		if (deleteColumn !== undefined && isFlagSet(data[deleteColumn])) {
			plan.deletes.push({ id, key, flagged: true });
			return;
		}
		if (mode === 'insertOnly') {
			plan.unchanged++;
			return;
		}
		if (timestampColumn !== undefined) {
			const rowTime = stampOf(data[timestampColumn]);
			if (rowTime === undefined) {
				plan.skipped.push({
					itemIndex,
					key,
					reason: `No readable time in timestamp column "${timestampColumn}"`,
				});
				return;
			}
			const storedTime = stampOf(stored[timestampColumn]);
			if (storedTime !== undefined && rowTime <= storedTime) {
				plan.unchanged++;
				return;
			}
		}
		const cells = options.updateAll ? data : rowChanges(stored, data, options.merge);
		if (cells) plan.updates.push({ itemIndex, key, id, data, cells });
		else plan.unchanged++;
	};

	return {
		visit(id, stored) {
			plan.existingCount++;
			if (sample.length < COLUMN_TYPE_SAMPLE) sample.push(stored);
			const result = rowKey(stored, options.keyColumns, options.ignoreKeyCase);
			if ('missing' in result) {
				if (mirror) plan.deletes.push({ id, key: null });
				return;
			}
			const { key } = result;
			const itemIndex = index.get(key);
			if (itemIndex !== undefined) onRowEntry?.(itemIndex, id);
			if (itemIndex !== undefined && marks[itemIndex] === 0) {
				marks[itemIndex] = MATCHED;
				plan.matched++;
				compare(itemIndex, key, id, stored);
			} else if (everyMatch && itemIndex !== undefined && marks[itemIndex] === MATCHED) {
				// Another entry holding the key: updated too, never taken for a stray.
				compare(itemIndex, key, id, stored);
			} else if (mirror && (itemIndex === undefined || marks[itemIndex] !== DUPLICATE)) {
				plan.deletes.push({ id, key });
			} else if (itemIndex !== undefined && marks[itemIndex] === MATCHED) {
				// Left, for one, by a commit whose answer was lost while another writer inserted the
				// same key: checked and repaired after the commits.
				marks[itemIndex] = SHARED;
				plan.shared.push(itemIndex);
			}
		},
		finish() {
			const unmatched = (row: number) => {
				if (keys[row] === undefined || marks[row] !== 0) return;
				if (deleteColumn !== undefined && isFlagSet(rows[row][deleteColumn])) plan.flaggedAbsent++;
				else if (mode === 'updateOnly') plan.notFound.push(row);
				else plan.inserts.push(row);
			};
			if (items) [...items].sort((a, b) => a - b).forEach(unmatched);
			else for (let row = 0; row < rows.length; row++) unmatched(row);
			// Updates and skipped rows in input order; deletes are in id order, as visited.
			plan.updates.sort((a, b) => a.itemIndex - b.itemIndex);
			plan.skipped.sort((a, b) => a.itemIndex - b.itemIndex);
			typeNewValues(plan, planColumnTypes(sample, options.columnTypes));
			return plan;
		},
	};
}

/**
 * The column types new values are written by: those the first entries read show (a column's type
 * when every one of them holding a value there holds that type, as the column mapper samples
 * them), then those known beside (`given`, e.g. the mapper's) for columns the entries do not show.
 */
export function planColumnTypes(
	sample: IDataObject[],
	given?: ColumnTypes,
): Map<string, ColumnType> {
	const columns = new Set<string>();
	for (const data of sample) for (const column in data) columns.add(column);
	const types = new Map(given ?? []);
	for (const column of columns) {
		const type = sampledColumnType(column, sample);
		// Mixed values: nothing to write text as, whatever was known beside.
		if (type === 'mixed') types.delete(column);
		else if (type) types.set(column, type);
	}
	return types;
}

/**
 * Writes the plan's new values by the column types (see valueForColumn): the rows it inserts and
 * the cells and rows of its updates (in `plan.rows` too). Only rows with a cell to type are copied, and only when some
 * column holds numbers or booleans. Unchanged rows send nothing, so they are left as given.
 */
export function typeNewValues(plan: SyncPlan, types: Map<string, ColumnType>): void {
	plan.columnTypes = types;
	if (![...types.values()].some(typesText)) return;
	for (const itemIndex of plan.inserts)
		plan.rows[itemIndex] = rowForColumns(plan.rows[itemIndex], types);
	for (const update of plan.updates) {
		update.cells = rowForColumns(update.cells, types);
		// The row as written (several updates of a row, see everyMatch, share it).
		plan.rows[update.itemIndex] = rowForColumns(plan.rows[update.itemIndex], types);
		update.data = plan.rows[update.itemIndex];
	}
}

/** The diff of the rows with a list of entries (in id order). */
export function diffRows(rows: InputRows, entries: StoredEntry[], options: DiffOptions): SyncPlan {
	const diff = startDiff(rows, options);
	for (const { id, data } of entries) diff.visit(id, data);
	return diff.finish();
}
