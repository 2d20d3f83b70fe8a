import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { asNodeError } from '../../../helpers/nodeError';
import { listFrom } from '../../../helpers/responses';
import { flipletApiRequest } from '../../../transport';
import { chunkBy, MAX_COMMIT_BYTES } from './chunks';
import type { SyncPlan } from './diff';
import { keyFilters, plainColumn } from './keyFilters';
import { rowKey } from './keys';
import { mayHaveLanded } from './mayHaveLanded';
import { selectQuery } from './selectQuery';
import { countedIn, type RequestCount } from './requestCount';
import { RECOVERY_ROUNDS, type Recovered } from './sendPlan';
import type { SyncSettings } from './settings';
import { readHolding } from './targetedRead';

export interface Repair {
	/** Extra entries removed (each key keeps its lowest-id entry). */
	removed: number;
	/** Deletes of extra entries whose answer was lost, read again (see repairDuplicates). */
	recovered: Recovered;
	/** The ids of the entries removed. */
	removedIds: number[];
	/**
	 * The entries the check read, by key (lowest id first; the first is the one kept): the keys it
	 * found, or may have found, on several entries. A key the check did not read is held by one
	 * entry at most.
	 */
	entriesOfKey: Map<string, number[]>;
}

/** The run the check is part of: its data source, rows, settings and request count. */
export interface RepairScope {
	target: DataSourceTarget;
	/** The rows and keys that inserted item indexes refer to. */
	plan: Pick<SyncPlan, 'rows' | 'keys'>;
	settings: SyncSettings;
	counter: RequestCount;
}

/** The `where` selecting (a superset of) the entries holding the keys of rows `items`. */
const whereKeysOf = ({ plan, settings }: RepairScope, items: number[]) =>
	keyFilters(settings.keyColumns, new Set(items.map((item) => plan.keys[item]!)));

interface KeyValueCounts {
	/** Key values held by exactly one entry. */
	single: number;
	/** Whether some value is held by several entries (or the answer was not understood). */
	shared: boolean;
}

/**
 * One request: the entries `where` keeps (all without one) grouped by key value, then the groups
 * counted by size. Without duplicates the answer is a single `{_id: 1, keys: n}`, whatever the
 * number of keys. Undefined when a key column cannot be named in an aggregation.
 */
async function countKeyValues(
	this: IExecuteFunctions,
	{ target, settings, counter }: RepairScope,
	where?: IDataObject,
): Promise<KeyValueCounts | undefined> {
	const { keyColumns } = settings;
	if (!keyColumns.every(plainColumn)) return undefined;
	// The pipeline sees whole entries: a column is `$data.<Column>`.
	const keyValue =
		keyColumns.length === 1
			? `$data.${keyColumns[0]}`
			: Object.fromEntries(keyColumns.map((column, index) => [`k${index}`, `$data.${column}`]));
	const aggregate = [
		{ $group: { _id: keyValue, n: { $sum: 1 } } },
		{ $group: { _id: '$n', keys: { $sum: 1 } } },
	];
	const body = await selectQuery.call(
		this,
		target,
		{ ...(where ? { where } : {}), aggregate },
		counter,
	);
	const counts = { single: 0, shared: false };
	for (const group of listFrom(this.getNode(), body, 'entries')) {
		if (!isObject(group) || group._id !== 1 || typeof group.keys !== 'number') counts.shared = true;
		else counts.single += group.keys;
	}
	return counts;
}

/** Whether the rows' keys (which `where` selects) may be held by more than one entry. */
async function mayHoldDuplicates(
	this: IExecuteFunctions,
	scope: RepairScope,
	inserted: number[],
	where: IDataObject,
): Promise<boolean> {
	const counts = await countKeyValues.call(this, scope, where);
	// The rows' keys are distinct (the plan inserts one row per key). More distinct values than
	// rows: some key is stored in several spellings (5 and "5", or another case), which only the
	// exact comparison below can tell apart.
	return !counts || counts.shared || counts.single > inserted.length;
}

/**
 * After inserting into a data source that was empty when read: whether it now holds exactly the
 * inserted keys, once each (then nothing can be duplicated), told by one count over the whole
 * data source without sending the keys. Anything else (another writer was there) is checked
 * key by key.
 */
async function holdsOnlyInserted(
	this: IExecuteFunctions,
	scope: RepairScope,
	insertedCount: number,
): Promise<boolean> {
	const counts = await countKeyValues.call(this, scope);
	return counts !== undefined && !counts.shared && counts.single === insertedCount;
}

/**
 * The ids of the entries holding each of the rows' keys, in id order, read by key as the read and
 * the recovery read them (see readHolding: the same requests, a whole read where `oneof` cannot be
 * trusted with the keys).
 */
async function entriesByKey(
	this: IExecuteFunctions,
	scope: RepairScope,
	inserted: number[],
): Promise<Map<string, number[]>> {
	const { target, plan, settings, counter } = scope;
	const { keyColumns } = settings;
	const keys = new Set(inserted.map((itemIndex) => plan.keys[itemIndex]!));
	const columns = keyColumns.every(plainColumn) ? keyColumns : 'all';
	const byKey = new Map<string, number[]>();
	const visit = (id: number, data: IDataObject) => {
		const found = rowKey(data, keyColumns, settings.ignoreKeyCase);
		if (!('key' in found) || !keys.has(found.key)) return;
		const ids = byKey.get(found.key);
		if (ids) ids.push(id);
		else byKey.set(found.key, [id]);
	};
	await readHolding.call(this, target, { keyColumns, keys: [...keys], columns }, visit, counter);
	return byKey;
}

/** Keys in one check stay about this size, so a million new keys take a handful of requests. */
const CHECK_BYTES = 4 * MAX_COMMIT_BYTES;

/**
 * After the commits, makes the key of each row of `lists` (distinct rows) be held by exactly one
 * entry: the rows
 * this run inserted (or may have: a commit whose answer was lost) and those whose key the read
 * found on several entries. Another run (an overlapping execution, another worker) may have
 * inserted the same key meanwhile. Every run keeps the entry with the lowest id and deletes the
 * others, so overlapping runs repair the same way and converge. Costs one request per few hundred
 * thousand keys when there is no duplicate, and one in all after filling an empty data source
 * (`sourceWasEmpty`, known only after a full read) that nobody else wrote to. When the delete's
 * answer is lost, the keys are checked again and what is still extra deleted again (at most
 * RECOVERY_ROUNDS times): an entry already gone counts as removed.
 */
export async function repairDuplicates(
	this: IExecuteFunctions,
	scope: RepairScope,
	lists: number[][],
	sourceWasEmpty: boolean,
): Promise<Repair> {
	const recovered = { commits: 0, rowsFound: 0, rowsResent: 0 };
	const repair: Repair = { removed: 0, recovered, removedIds: [], entriesOfKey: new Map() };
	const count = lists.reduce((sum, items) => sum + items.length, 0);
	if (sourceWasEmpty && count) {
		if (await holdsOnlyInserted.call(this, scope, count)) return repair;
	}
	// One list of the rows, made only now: a first load into an empty data source never needs it.
	const checked = lists.length === 1 ? lists[0] : lists.flat();
	// The extra entries of a delete whose answer was lost: the next check tells which went.
	let lost: number[] = [];
	for (let round = 0; ; round++) {
		const extra = await extraEntries.call(this, scope, checked, repair.entriesOfKey);
		const left = new Set(extra);
		const gone = lost.filter((id) => !left.has(id));
		repair.removed += gone.length;
		repair.removedIds.push(...gone);
		recovered.rowsFound += gone.length;
		recovered.rowsResent += lost.length - gone.length;
		if (!extra.length) return repair;
		try {
			await deleteEntries.call(this, scope, extra);
			repair.removed += extra.length;
			repair.removedIds.push(...extra);
			return repair;
		} catch (error) {
			if (round >= RECOVERY_ROUNDS || !mayHaveLanded(error, true))
				throw asNodeError(this.getNode(), error);
			recovered.commits++;
			lost = extra;
		}
	}
}

/**
 * The entries of the keys of rows `checked` beyond the lowest-id one of each key. The entries of
 * each key read go to `entriesOfKey` (a later round's read replaces an earlier one's).
 */
async function extraEntries(
	this: IExecuteFunctions,
	scope: RepairScope,
	checked: number[],
	entriesOfKey: Map<string, number[]>,
): Promise<number[]> {
	const { plan } = scope;
	const extra: number[] = [];
	const keySize = (itemIndex: number) => (plan.keys[itemIndex] as string).length + 4;
	for (const part of chunkBy(checked, Infinity, CHECK_BYTES, keySize)) {
		const where = whereKeysOf(scope, part);
		if (!(await mayHoldDuplicates.call(this, scope, part, where))) continue;
		const byKey = await entriesByKey.call(this, scope, part);
		for (const [key, ids] of byKey) {
			// Entries come in id order: the first is the oldest, the one every run keeps.
			entriesOfKey.set(key, ids);
			extra.push(...ids.slice(1));
		}
	}
	return extra;
}

async function deleteEntries(this: IExecuteFunctions, scope: RepairScope, ids: number[]) {
	const { target, counter } = scope;
	await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'commit'),
		qs: target.qs,
		body: { entries: [], append: true, delete: ids, returnEntries: false },
		// Deleting the same ids again changes nothing.
		idempotent: true,
		...countedIn(counter),
	});
}
