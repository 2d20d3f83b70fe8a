import type { IDataObject } from 'n8n-workflow';

import type { PlannedDelete, PlannedInsert, PlannedUpdate, SyncPlan } from './diff';

/** A commit body stays far below the API's 1 GB request limit, whatever the chunk size. */
export const MAX_COMMIT_BYTES = 4 * 1024 * 1024;

export type CommitKind = 'update' | 'insert' | 'delete';

export interface PlannedCommit {
	kind: CommitKind;
	/** Re-sending it changes nothing (updates by id, deletes), so the transport may retry it. */
	idempotent: boolean;
	body: IDataObject;
	updates: PlannedUpdate[];
	inserts: PlannedInsert[];
	deletes: PlannedDelete[];
}

export interface CommitOptions {
	chunkSize: number;
	maxBytes?: number;
	merge: boolean;
	runHooks: string[];
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

/** The id the API maps back to the new entry's id in `clientIds`. */
export const clientIdOf = (itemIndex: number) => `n8n-row-${itemIndex}`;

const sizeOfJson = (value: unknown) => JSON.stringify(value).length + 1;

/**
 * The commits that carry a plan out, in the order they must land: updates, then inserts (both
 * with `append: true`, so nothing else is touched), then deletes in a final commit, so a failure
 * part-way never loses an entry. Inserts and updates never share a commit: only update and delete
 * commits may be retried, since re-sending an insert could duplicate rows.
 */
export function planCommits(plan: SyncPlan, options: CommitOptions): PlannedCommit[] {
	const maxBytes = options.maxBytes ?? MAX_COMMIT_BYTES;
	const upsertBody = (entries: IDataObject[]): IDataObject => ({
		entries,
		append: true,
		extend: options.merge,
		returnEntries: false,
		...(options.runHooks.length ? { runHooks: options.runHooks } : {}),
	});
	const commits: PlannedCommit[] = [];

	const updateEntry = (row: PlannedUpdate): IDataObject => ({ id: row.id, data: row.data });
	for (const chunk of chunkBy(plan.updates, options.chunkSize, maxBytes, (row) =>
		sizeOfJson(updateEntry(row)),
	)) {
		commits.push({
			kind: 'update',
			idempotent: true,
			body: upsertBody(chunk.map(updateEntry)),
			updates: chunk,
			inserts: [],
			deletes: [],
		});
	}

	const insertEntry = (row: PlannedInsert): IDataObject => ({
		data: row.data,
		clientId: clientIdOf(row.itemIndex),
	});
	for (const chunk of chunkBy(plan.inserts, options.chunkSize, maxBytes, (row) =>
		sizeOfJson(insertEntry(row)),
	)) {
		commits.push({
			kind: 'insert',
			idempotent: false,
			body: upsertBody(chunk.map(insertEntry)),
			updates: [],
			inserts: chunk,
			deletes: [],
		});
	}

	for (const chunk of chunkBy(
		plan.deletes,
		Infinity,
		maxBytes,
		(row) => String(row.id).length + 1,
	)) {
		commits.push({
			kind: 'delete',
			idempotent: true,
			body: { entries: [], append: true, delete: chunk.map((row) => row.id), returnEntries: false },
			updates: [],
			inserts: [],
			deletes: chunk,
		});
	}
	return commits;
}
