import type { IDataObject } from 'n8n-workflow';

import type { InputRows, PlannedDelete, PlannedUpdate, SyncPlan } from './diff';

/**
 * A commit body stays far below the API's 1 GB request limit, whatever the chunk size: wide rows
 * get fewer per commit, so a commit's size (and the time it may take to send) stays bounded.
 */
export const MAX_COMMIT_BYTES = 16 * 1024 * 1024;

export type CommitKind = 'update' | 'insert' | 'delete';

export interface PlannedCommit {
	kind: CommitKind;
	/** Re-sending it changes nothing (updates by id without hooks, deletes): the transport may retry it. */
	idempotent: boolean;
	updates: PlannedUpdate[];
	/** Item indexes of the rows it inserts. */
	inserts: number[];
	deletes: PlannedDelete[];
}

export interface CommitOptions {
	chunkSize: number;
	maxBytes?: number;
	merge: boolean;
	runHooks: string[];
	/** Rows are output with their new ids: inserts carry a `clientId` the API maps to the id. */
	outputRows: boolean;
}

/** Splits a list into runs of at most `maxCount` items and about `maxBytes` serialized bytes. */
export function chunkBy<T>(
	items: T[],
	maxCount: number,
	maxBytes: number,
	sizeOf: (item: T) => number,
): T[][] {
	const chunks: T[][] = [];
	let current: T[] = [];
	let bytes = 0;
	for (const item of items) {
		const size = sizeOf(item);
		if (current.length && (current.length >= maxCount || bytes + size > maxBytes)) {
			chunks.push(current);
			current = [];
			bytes = 0;
		}
		current.push(item);
		bytes += size;
	}
	if (current.length) chunks.push(current);
	return chunks;
}

/**
 * About the JSON size of a row, without serializing it (that would double the memory a large
 * sync needs): exact for plain ASCII values, nested values are serialized.
 */
export function approxJsonSize(data: IDataObject): number {
	// `{}`, and per column `"name":` plus a comma (one fewer than there are columns).
	let size = 1;
	for (const column of Object.keys(data)) {
		const value = data[column];
		size += column.length + 4;
		if (typeof value === 'string') size += value.length + 2;
		else if (typeof value === 'object') size += JSON.stringify(value).length;
		else size += String(value).length;
	}
	return Math.max(2, size);
}

/** The id the API maps back to the new entry's id in `clientIds`. */
export const clientIdOf = (itemIndex: number) => `n8n-row-${itemIndex}`;

/** What a row adds to a commit beside its data: `{"id":…,"data":…}` or `{"data":…,"clientId":…}`. */
const ENTRY_OVERHEAD = 40;
/** An insert without a clientId: `{"data":…}` and a comma. */
const BARE_INSERT_OVERHEAD = 10;

/**
 * The commits that carry a plan out, in the order they must land: updates, then inserts (both
 * with `append: true`, so nothing else is touched), then deletes in a final commit, so a failure
 * part-way never loses an entry. Inserts and updates never share a commit: only update and delete
 * commits may be retried, since re-sending an insert could duplicate rows.
 */
export function planCommits(plan: SyncPlan, options: CommitOptions): PlannedCommit[] {
	const maxBytes = options.maxBytes ?? MAX_COMMIT_BYTES;
	const updateSize = (row: PlannedUpdate) => approxJsonSize(row.cells) + ENTRY_OVERHEAD;
	const insertOverhead = options.outputRows ? ENTRY_OVERHEAD : BARE_INSERT_OVERHEAD;
	const insertSize = (itemIndex: number) => approxJsonSize(plan.rows[itemIndex]) + insertOverhead;
	const commits: PlannedCommit[] = [];
	// Hooks can call web addresses: a commit that runs them is never re-sent.
	const updatesIdempotent = options.runHooks.length === 0;
	for (const updates of chunkBy(plan.updates, options.chunkSize, maxBytes, updateSize)) {
		commits.push({
			kind: 'update',
			idempotent: updatesIdempotent,
			updates,
			inserts: [],
			deletes: [],
		});
	}
	for (const inserts of chunkBy(plan.inserts, options.chunkSize, maxBytes, insertSize)) {
		commits.push({ kind: 'insert', idempotent: false, updates: [], inserts, deletes: [] });
	}
	const idSize = (row: PlannedDelete) => String(row.id).length + 1;
	for (const deletes of chunkBy(plan.deletes, Infinity, maxBytes, idSize)) {
		commits.push({ kind: 'delete', idempotent: true, updates: [], inserts: [], deletes });
	}
	return commits;
}

/** The request body of a commit, built only when it is sent. */
export function commitBody(
	commit: PlannedCommit,
	rows: InputRows,
	options: CommitOptions,
): IDataObject {
	if (commit.kind === 'delete') {
		return {
			entries: [],
			append: true,
			delete: commit.deletes.map((row) => row.id),
			returnEntries: false,
		};
	}
	const entries: IDataObject[] =
		commit.kind === 'update'
			? commit.updates.map((row) => ({ id: row.id, data: row.cells }))
			: commit.inserts.map((itemIndex) =>
					options.outputRows
						? { data: rows[itemIndex], clientId: clientIdOf(itemIndex) }
						: { data: rows[itemIndex] },
				);
	return {
		entries,
		append: true,
		extend: options.merge,
		returnEntries: false,
		...(options.runHooks.length ? { runHooks: options.runHooks } : {}),
	};
}
