import type { NodeOperationError } from 'n8n-workflow';

import type { PlannedCommit } from './chunks';
import { isFlagSet, type SyncPlan } from './diff';
import { insertedEntryId } from './entryIds';
import type { Repair } from './repairDuplicates';
import type { RowEntries } from './rowEntries';
import type { PlanOutcome } from './sendPlan';

/** What a Sync run did with one input row. */
export type RowAction =
	/** A new entry holds it. */
	| 'insert'
	/** Its entry (or, when the engine updates every matched entry, each of them) was changed. */
	| 'update'
	/** Its entry already held it, or was newer (Timestamp Column). */
	| 'unchanged'
	/** Its delete flag (Delete Flag Column) deleted its entry. */
	| 'delete'
	/**
	 * Left alone: no key, a key another row has too, no readable time, or a delete flag with no
	 * entry to delete. `reason` says which.
	 */
	| 'skip'
	/** Only Update Existing: no entry holds its key, or it was deleted while Sync ran. `error` says so. */
	| 'notFound'
	/** It holds a value that cannot be sent (`error` says which): nothing of it was sent. */
	| 'refused';

/**
 * Whether what `action` says is true once the run has ended:
 * - `done`: it is (the entry holds the row, the entry was deleted, or nothing was to change);
 * - `mayHaveLanded`: its commit failed after being sent and the run stopped before it could read
 *   what that commit stored;
 * - `notDone`: nothing of the row was written (skipped, not found, refused, a dry run, or the run
 *   stopped before its commit was sent).
 */
export type RowOutcome = 'done' | 'mayHaveLanded' | 'notDone';

/**
 * The per-row answer of a Sync run: what happened to input item `i` is `rows[i]`. Create or Update
 * gives one output item per input item from it.
 */
export interface RowResult {
	action: RowAction;
	outcome: RowOutcome;
	/**
	 * The entries that hold the row at the end of the run, lowest id first: the one the duplicate
	 * repair kept when the key was on several entries (another writer's insert, a late landing),
	 * never one this run deleted. Empty when no entry holds it or its id is not known (a deleted
	 * entry, a row not written, an insert whose commit's outcome stayed unknown or whose answer
	 * carried no ids). Unchanged and skipped rows name the entries the read found, so only when
	 * the run was asked to keep them (see runSync's `rowResults`).
	 */
	ids: number[];
	/**
	 * Its insert was sent again after a commit of unknown outcome, which may still land after the
	 * run: its key may then be on two entries until Sync runs again (the summary's `mayBeDoubled`).
	 */
	mayBeDoubled?: true;
	/** Why a skipped row was left alone. */
	reason?: string;
	/** The error of a row not found or refused (with Continue On Fail, its error item). */
	error?: NodeOperationError;
}

/** What the per-row results are made of: the plan, what landed, the repair and the errors. */
export interface RowResultsInput {
	itemCount: number;
	plan: SyncPlan;
	/** The plan's commits. */
	commits: PlannedCommit[];
	/** Undefined for a dry run: nothing was sent. */
	outcome?: PlanOutcome;
	repair?: Repair;
	deleteColumn?: string;
	/** The entries the read found holding each row's key, when it kept them. */
	rowEntries?: RowEntries;
	/** Rows refused before any request, by item index. */
	refused: Map<number, NodeOperationError>;
	/** Rows of Only Update Existing whose key no entry holds (or whose entry went), by item index. */
	notFound: Map<number, NodeOperationError>;
	/** Inserted rows whose key may be on two entries after the run. */
	mayBeDoubled?: ReadonlySet<number>;
}

/** The result of each input row, by item index (see RowResult). */
export function rowResults(input: RowResultsInput): RowResult[] {
	const { plan, outcome, repair } = input;
	const results: Array<RowResult | undefined> = new Array(input.itemCount);
	for (const [item, error] of input.refused)
		results[item] = { action: 'refused', outcome: 'notDone', ids: [], error };
	for (const [item, error] of input.notFound)
		results[item] ??= { action: 'notFound', outcome: 'notDone', ids: [], error };

	const deletedIds = new Set(repair?.removedIds ?? []);
	for (const commit of outcome?.landed ?? [])
		for (const row of commit.deletes) deletedIds.add(row.id);
	const entriesOf = (item: number) =>
		(input.rowEntries?.of(item) ?? []).filter((id) => !deletedIds.has(id));

	// Flagged deletes name an entry by key: the row is found by its key below.
	const flaggedDeletes = new Map<string, RowOutcome>();
	// The commits by how sure their landing is: a row of a commit that landed (a lost commit's rows
	// found stored, a re-sent part) is done whatever else carried it.
	const place = (commits: PlannedCommit[], state: RowOutcome) => {
		for (const commit of commits) {
			for (const item of commit.inserts) {
				if (results[item]) continue;
				const id = insertedEntryId(input, item);
				results[item] = {
					action: 'insert',
					outcome: state,
					ids: id === undefined ? [] : [id],
					...(input.mayBeDoubled?.has(item) ? { mayBeDoubled: true as const } : {}),
				};
			}
			for (const row of commit.updates) {
				const known = results[row.itemIndex];
				if (!known) results[row.itemIndex] = { action: 'update', outcome: state, ids: [row.id] };
				else if (
					known.action === 'update' &&
					known.outcome === state &&
					!known.ids.includes(row.id)
				)
					known.ids.push(row.id);
			}
			for (const row of commit.deletes) {
				if (row.flagged && row.key !== null && !flaggedDeletes.has(row.key))
					flaggedDeletes.set(row.key, state);
			}
		}
	};
	place(outcome?.landed ?? [], 'done');
	place(outcome?.unknown ?? [], 'mayHaveLanded');
	place(input.commits, 'notDone');

	for (const { itemIndex, reason } of plan.skipped) {
		results[itemIndex] ??= {
			action: 'skip',
			outcome: 'notDone',
			ids: entriesOf(itemIndex),
			reason,
		};
	}
	const { deleteColumn } = input;
	for (let item = 0; item < input.itemCount; item++) {
		if (results[item]) continue;
		const key = plan.keys[item];
		const flagged = deleteColumn !== undefined && isFlagSet(plan.rows[item][deleteColumn]);
		if (key !== undefined && flagged) {
			const state = flaggedDeletes.get(key);
			results[item] = state
				? { action: 'delete', outcome: state, ids: [] }
				: {
						action: 'skip',
						outcome: 'notDone',
						ids: [],
						reason: 'Its delete flag is set and no entry holds its key',
					};
		} else results[item] = { action: 'unchanged', outcome: 'done', ids: entriesOf(item) };
	}
	// Create or Update updates every entry holding a key (DiffOptions.everyMatch): those that
	// already held the row hold it too. Strays of Sync's own updates (`shared`) are not the row's.
	const shared = new Set([...plan.shared, ...(outcome?.shared ?? [])]);
	for (let item = 0; item < input.itemCount; item++) {
		const result = results[item]!;
		if (result.action !== 'update' || shared.has(item)) continue;
		result.ids = [...new Set([...result.ids, ...entriesOf(item)])].sort((a, b) => a - b);
	}
	// Rows folded into an earlier row of their key (DiffOptions.foldSharedKeys) share its result.
	for (const [item, into] of plan.foldedInto) results[item] = results[into];
	return results as RowResult[];
}
