import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { columnsFor, type ReadColumns } from './attributes';
import { planCommits, type PlannedCommit } from './chunks';
import { keyedSubset, startDiff, type PlannedUpdate, type SyncMode, type SyncPlan } from './diff';
import { guardKeyColumns } from './keyColumnGuard';
import { plainColumn } from './keyFilters';
import { rowKey } from './keys';
import type { RequestCount } from './requestCount';
import type { SyncSettings } from './settings';
import { readHolding } from './targetedRead';

/** The run a recovery is part of: its data source, rows and keys, settings and request count. */
export interface RecoveryScope {
	target: DataSourceTarget;
	plan: Pick<SyncPlan, 'rows' | 'keys'>;
	settings: SyncSettings;
	counter: RequestCount;
}

/** What the data source showed of one commit whose answer was lost. */
export interface RecoveredCommit {
	/** Its rows found stored as sent (inserts whose key is there, deletes whose entry is gone). */
	found: PlannedCommit;
	/** What is still to send for it: the rows of its that were not stored, diffed again. */
	resend: PlannedCommit[];
	/** Its inserts whose key the read found on no entry. */
	absent: Set<number>;
}

export interface Recovery {
	/** One per commit, in the order given. */
	commits: RecoveredCommit[];
	/** Entry id of each insert found stored, by item index. */
	newIds: Map<number, number>;
	/** Rows whose key the read found on several entries: checked with the inserted keys. */
	shared: number[];
	/** Rows of Only Update Existing whose entry is gone (another writer deleted it meanwhile). */
	vanished: number[];
}

const rowsOf = (commit: PlannedCommit) =>
	commit.inserts.length + commit.updates.length + commit.deletes.length;

export const rowCount = (commits: PlannedCommit[]) =>
	commits.reduce((sum, commit) => sum + rowsOf(commit), 0);

const emptyCommit = (commit: PlannedCommit): PlannedCommit => ({
	...commit,
	inserts: [],
	updates: [],
	deletes: [],
});

/**
 * The mode the rows of a lost commit are diffed again in: as they were, except that mirror's
 * deletes are not theirs (those are in delete commits of their own).
 */
const againIn = (mode: SyncMode): SyncMode => (mode === 'mirror' ? 'insertAndUpdate' : mode);

/**
 * Inserts and updates of commits whose answer was lost: their rows are diffed again with the
 * entries holding their keys, so what was stored as sent is found, and only the rest is sent
 * again: an insert whose key is absent (never one whose key was found), an update whose cells
 * differ from what was sent. Rows are compared, never updated blindly (Update Every Matched Row
 * does not apply here), so a commit that landed sends nothing again.
 */
async function recoverWrites(
	this: IExecuteFunctions,
	scope: RecoveryScope,
	commits: PlannedCommit[],
	recovery: Recovery,
): Promise<RecoveredCommit[]> {
	const { plan, settings, target, counter } = scope;
	// Each row once: a row may update several entries (DiffOptions.everyMatch).
	const items = [
		...new Set(
			commits.flatMap((commit) => [
				...commit.inserts,
				...commit.updates.map((row) => row.itemIndex),
			]),
		),
	];
	if (!items.length) return [];
	const options = { ...settings, mode: againIn(settings.mode), updateAll: false };
	const diff = startDiff(plan.rows, options, keyedSubset(plan.keys, items));
	const wanted = new Set(items.map((item) => plan.keys[item]!));
	// The entries holding each key now, in id order: the first is a stored insert's.
	const idsOfKey = new Map<string, number[]>();
	const visit = (id: number, data: IDataObject) => {
		const found = rowKey(data, settings.keyColumns, settings.ignoreKeyCase);
		if ('key' in found && wanted.has(found.key))
			idsOfKey.set(found.key, [...(idsOfKey.get(found.key) ?? []), id]);
		diff.visit(id, data);
	};
	const guard = guardKeyColumns(settings.keyColumns, visit);
	const columns = columnsFor(
		items.map((item) => plan.rows[item]),
		options,
	);
	const lookup = { keyColumns: settings.keyColumns, keys: [...wanted], columns };
	await readHolding.call(this, target, lookup, guard.visit, counter);
	guard.refuseKeylessRead.call(this);
	const again = diff.finish();
	const insertAgain = new Set(again.inserts);
	const vanished = new Set(again.notFound);
	recovery.shared.push(...again.shared);
	recovery.vanished.push(...again.notFound);
	const notStored = (item: number) => insertAgain.has(item) || vanished.has(item);
	// By row and entry: a row may update several entries (DiffOptions.everyMatch), each stored or
	// not on its own, and each re-sent by the commit that carried it (a row's updates may span
	// commits); an update of an entry the row did not name before (its entry was replaced) goes
	// with the row's first commit.
	const updateOf = (row: Pick<PlannedUpdate, 'itemIndex' | 'id'>) => `${row.itemIndex} ${row.id}`;
	const commitOf = new Map<string, number>();
	const firstCommitOf = new Map<number, number>();
	commits.forEach((commit, place) => {
		for (const row of commit.updates) commitOf.set(updateOf(row), place);
		for (const item of [...commit.inserts, ...commit.updates.map((row) => row.itemIndex)])
			if (!firstCommitOf.has(item)) firstCommitOf.set(item, place);
	});
	const updatesAgain: PlannedUpdate[][] = commits.map(() => []);
	for (const row of again.updates) {
		const place = commitOf.get(updateOf(row)) ?? firstCommitOf.get(row.itemIndex);
		if (place !== undefined) updatesAgain[place].push(row);
	}
	const updateAgain = new Set(again.updates.map(updateOf));
	const updatedAgain = new Set(again.updates.map((row) => row.itemIndex));
	const stillHeld = (row: PlannedUpdate) =>
		idsOfKey.get(plan.keys[row.itemIndex]!)?.includes(row.id) === true;
	const updateStored = (row: PlannedUpdate) =>
		stillHeld(row) && !updateAgain.has(updateOf(row)) && !notStored(row.itemIndex);
	return commits.map((commit, place) => {
		const found = emptyCommit(commit);
		// An insert whose key's entry is to be updated again (another writer's came first) is not
		// its own entry: the row is sent again, as an update.
		found.inserts = commit.inserts.filter((item) => !notStored(item) && !updatedAgain.has(item));
		found.updates = commit.updates.filter(updateStored);
		for (const item of found.inserts) {
			const id = idsOfKey.get(plan.keys[item]!)?.[0];
			if (id !== undefined) recovery.newIds.set(item, id);
		}
		// An update whose entry is gone is an insert again (outside Only Update Existing), sent
		// once, with the row's first commit.
		const own = new Set([...commit.inserts, ...commit.updates.map((row) => row.itemIndex)]);
		const insertedHere = (item: number) =>
			insertAgain.has(item) && firstCommitOf.get(item) === place;
		const remainder = {
			...again,
			inserts: [...own].filter(insertedHere).sort((a, b) => a - b),
			updates: updatesAgain[place],
			deletes: [],
		};
		const absent = new Set(commit.inserts.filter((item) => insertAgain.has(item)));
		return { found, resend: planCommits(remainder, settings), absent };
	});
}

/**
 * Delete commits whose answer was lost: the entries still there are deleted again, those already
 * gone count as deleted. They are looked up by key when every one has a key, else the whole data
 * source is read (its key columns only).
 */
async function recoverDeletes(
	this: IExecuteFunctions,
	scope: RecoveryScope,
	commits: PlannedCommit[],
): Promise<RecoveredCommit[]> {
	const { settings, target, counter } = scope;
	const rows = commits.flatMap((commit) => commit.deletes);
	if (!rows.length) return [];
	const keyed = rows.every((row) => row.key !== null);
	const keys = keyed ? [...new Set(rows.map((row) => row.key!))] : [];
	const present = new Set<number>();
	const columns: ReadColumns = settings.keyColumns.every(plainColumn) ? settings.keyColumns : 'all';
	const lookup = { keyColumns: settings.keyColumns, keys, columns };
	await readHolding.call(this, target, lookup, (id) => present.add(id), counter, !keyed);
	return commits.map((commit) => {
		const found = {
			...emptyCommit(commit),
			deletes: commit.deletes.filter((row) => !present.has(row.id)),
		};
		const left = commit.deletes.filter((row) => present.has(row.id));
		const resend = left.length ? [{ ...emptyCommit(commit), deletes: left }] : [];
		return { found, resend, absent: new Set<number>() };
	});
}

/**
 * Finds out what commits whose answer was lost (see mayHaveLanded) stored, by reading the entries
 * holding their keys, and what is left to send for each. Throws when that read fails: the
 * commits' outcome then stays unknown.
 */
export async function recoverUnknown(
	this: IExecuteFunctions,
	scope: RecoveryScope,
	commits: PlannedCommit[],
): Promise<Recovery> {
	const recovery: Recovery = { commits: [], newIds: new Map(), shared: [], vanished: [] };
	const writes = commits.filter((commit) => commit.kind !== 'delete');
	const deletes = commits.filter((commit) => commit.kind === 'delete');
	const recovered = new Map<PlannedCommit, RecoveredCommit>();
	const ofWrites = await recoverWrites.call(this, scope, writes, recovery);
	writes.forEach((commit, index) => recovered.set(commit, ofWrites[index]));
	const ofDeletes = await recoverDeletes.call(this, scope, deletes);
	deletes.forEach((commit, index) => recovered.set(commit, ofDeletes[index]));
	recovery.commits = commits.map((commit) => recovered.get(commit)!);
	return recovery;
}
