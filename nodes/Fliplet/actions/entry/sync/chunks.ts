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

/**
 * Splits a list into runs of at most `maxCount` items and about `maxBytes` serialized bytes; with
 * `share`, run `n` (0-based) gets that share of both limits. With `maxChunks`, only the first that
 * many runs are made (the last may then be short).
 */
export function chunkBy<T>(
	items: T[],
	maxCount: number,
	maxBytes: number,
	sizeOf: (item: T) => number,
	{ share, maxChunks = Infinity }: ChunkOptions = {},
): T[][] {
	const chunks: T[][] = [];
	if (maxChunks <= 0) return chunks;
	// Everything in one run (the usual read by key, a small plan): the list itself, not a copy of
	// it (no caller changes a run).
	if (!share && items.length && items.length <= maxCount && fitsIn(items, maxBytes, sizeOf))
		return [items];
	let current: T[] = [];
	let bytes = 0;
	const limitsOf = (chunk: number) => {
		const part = share ? share(chunk) : 1;
		return { count: Math.max(1, Math.ceil(maxCount * part)), bytes: maxBytes * part };
	};
	let most = limitsOf(0);
	for (const item of items) {
		const size = sizeOf(item);
		if (current.length && (current.length >= most.count || bytes + size > most.bytes)) {
			chunks.push(current);
			if (chunks.length >= maxChunks) return chunks;
			current = [];
			bytes = 0;
			most = limitsOf(chunks.length);
		}
		current.push(item);
		bytes += size;
	}
	if (current.length) chunks.push(current);
	return chunks;
}

/** Whether the items' sizes add up to at most `maxBytes`. */
function fitsIn<T>(items: T[], maxBytes: number, sizeOf: (item: T) => number): boolean {
	let bytes = 0;
	for (const item of items) {
		bytes += sizeOf(item);
		if (bytes > maxBytes) return false;
	}
	return true;
}

export interface ChunkOptions {
	share?: (chunk: number) => number;
	maxChunks?: number;
}

/** Digits of a whole number from 0 to 999,999,999. */
function digitsOf(whole: number): number {
	let digits = 1;
	for (let bound = 10; whole >= bound && digits < 9; bound *= 10) digits++;
	return digits;
}

/** The length of a number as JSON writes it, without building the text for the usual whole ones. */
function numberJsonLength(value: number): number {
	if (!Number.isInteger(value) || Math.abs(value) >= 1e9) return String(value).length;
	return value < 0 ? digitsOf(-value) + 1 : digitsOf(value);
}

/**
 * About the JSON size of a row, without serializing it (that would double the memory a large
 * sync needs): exact for plain ASCII values, nested values are serialized. Texts, numbers and
 * booleans are measured without building any text: Sync sizes every row it sends.
 */
export function approxJsonSize(data: IDataObject): number {
	// `{}`, and per column `"name":` plus a comma (one fewer than there are columns).
	let size = 1;
	for (const column of Object.keys(data)) {
		const value = data[column];
		size += column.length + 4;
		switch (typeof value) {
			case 'string':
				size += value.length + 2;
				break;
			case 'number':
				size += numberJsonLength(value);
				break;
			case 'boolean':
				size += value ? 4 : 5;
				break;
			case 'object':
				size += value === null ? 4 : JSON.stringify(value).length;
				break;
			default:
				size += String(value).length;
		}
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
 * Commits on their way at once (see sendCommits): the next ones upload while the server stores
 * those before, so the uplink does not idle for a round trip per commit.
 */
export const COMMITS_IN_FLIGHT = 4;

/**
 * When a plan has more commits than go at once, its first ones grow to the full chunk size: the
 * n-th of the first COMMITS_IN_FLIGHT carries n/COMMITS_IN_FLIGHT of it. Uploads sent together
 * share the link and would end together, leaving it idle while the server stores them and their
 * answers come back before the next ones go; uploads of different sizes end one after another,
 * and each next commit starts while the others still use the link.
 */
const rampShare = (commit: number) =>
	commit < COMMITS_IN_FLIGHT ? (commit + 1) / COMMITS_IN_FLIGHT : 1;

/**
 * The commits that carry a plan out, in the order they must land: updates, then inserts (both
 * with `append: true`, so nothing else is touched), then deletes in a final commit, so a failure
 * part-way never loses an entry. Inserts and updates never share a commit: only update and delete
 * commits may be retried, since re-sending an insert could duplicate rows. When there are more
 * update and insert commits than go at once, the first ones are smaller (see rampShare).
 */
export function planCommits(plan: SyncPlan, options: CommitOptions): PlannedCommit[] {
	const maxBytes = options.maxBytes ?? MAX_COMMIT_BYTES;
	const updateSize = (row: PlannedUpdate) => approxJsonSize(row.cells) + ENTRY_OVERHEAD;
	const insertOverhead = options.outputRows ? ENTRY_OVERHEAD : BARE_INSERT_OVERHEAD;
	const insertSize = (itemIndex: number) => approxJsonSize(plan.rows[itemIndex]) + insertOverhead;
	const { chunkSize } = options;
	// Hooks can call web addresses: a commit that runs them is never re-sent.
	const updatesIdempotent = options.runHooks.length === 0;
	const writes = ({ share, maxChunks = Infinity }: ChunkOptions = {}): PlannedCommit[] => {
		const chunking = (first: number): ChunkOptions => ({
			// A ramp goes on over the insert commits, after the update commits.
			share: share && ((chunk: number) => share(first + chunk)),
			maxChunks: maxChunks - first,
		});
		const updates = chunkBy(plan.updates, chunkSize, maxBytes, updateSize, chunking(0));
		const inserts = chunkBy(
			plan.inserts,
			chunkSize,
			maxBytes,
			insertSize,
			chunking(updates.length),
		);
		return [
			...updates.map((chunk) => ({
				kind: 'update' as const,
				idempotent: updatesIdempotent,
				updates: chunk,
				inserts: [],
				deletes: [],
			})),
			...inserts.map((chunk) => ({
				kind: 'insert' as const,
				idempotent: false,
				updates: [],
				inserts: chunk,
				deletes: [],
			})),
		];
	};
	// Whether there are more commits than go at once is known once one more than that is made.
	let commits = writes({ maxChunks: COMMITS_IN_FLIGHT + 1 });
	if (commits.length > COMMITS_IN_FLIGHT) commits = writes({ share: rampShare });
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
