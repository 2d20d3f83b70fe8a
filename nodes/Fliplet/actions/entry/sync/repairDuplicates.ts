import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { listFrom } from '../../../helpers/responses';
import { flipletApiRequest } from '../../../transport';
import { chunkBy, MAX_COMMIT_BYTES } from './chunks';
import type { SyncPlan } from './diff';
import { rowKey } from './keys';
import { readById } from './readEntries';
import type { SyncSettings } from './settings';

export interface Repair {
	/** Extra entries removed (each key keeps its lowest-id entry). */
	removed: number;
}

/** The run the check is part of: its data source, rows, settings and request count. */
export interface RepairScope {
	target: DataSourceTarget;
	/** The rows and keys that inserted item indexes refer to. */
	plan: Pick<SyncPlan, 'rows' | 'keys'>;
	settings: SyncSettings;
	counter: { requests: number };
}

/** A key cell as the text the platform's `oneof` condition compares (it ignores case). */
const cellText = (value: unknown) =>
	typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value).trim();

/**
 * `$filters` matching at least every entry that holds one of the rows' keys (one `oneof` per key
 * column, all must match): a superset when keys are case-sensitive or span several columns; the
 * exact keys are told apart here.
 */
function keyFilters({ plan, settings }: RepairScope, inserted: number[]): IDataObject {
	return {
		$filters: settings.keyColumns.map((column) => ({
			column,
			condition: 'oneof',
			value: [...new Set(inserted.map((itemIndex) => cellText(plan.rows[itemIndex][column])))],
		})),
	};
}

/** Column names an aggregation reads as they are (a dot or a leading $ means something else there). */
const plainColumn = (column: string) => !column.includes('.') && !column.startsWith('$');

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
	counter.requests++;
	const body = await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'data', 'query'),
		qs: target.qs,
		body: {
			type: 'select',
			...(where ? { where } : {}),
			aggregate: [
				{ $group: { _id: keyValue, n: { $sum: 1 } } },
				{ $group: { _id: '$n', keys: { $sum: 1 } } },
			],
		},
		idempotent: true,
	});
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

/** The ids of the entries holding each of the rows' keys, read in stable pages by id. */
async function entriesByKey(
	this: IExecuteFunctions,
	scope: RepairScope,
	inserted: number[],
	where: IDataObject,
): Promise<Map<string, number[]>> {
	const { target, plan, settings, counter } = scope;
	const { keyColumns } = settings;
	const wanted = new Set(inserted.map((itemIndex) => plan.keys[itemIndex]));
	const columns = keyColumns.every(plainColumn) ? keyColumns : 'all';
	const byKey = new Map<string, number[]>();
	const visit = (id: number, data: IDataObject) => {
		const found = rowKey(data, keyColumns, settings.ignoreKeyCase);
		if (!('key' in found) || !wanted.has(found.key)) return;
		byKey.set(found.key, [...(byKey.get(found.key) ?? []), id]);
	};
	await readById.call(this, target, { columns, where, prepare: async () => visit }, counter);
	return byKey;
}

/** Keys in one check stay about this size, so a million new keys take a handful of requests. */
const CHECK_BYTES = 4 * MAX_COMMIT_BYTES;

/**
 * After the commits, makes the key of each `checked` row be held by exactly one entry: the rows
 * this run inserted (or may have: a commit whose answer was lost) and those whose key the read
 * found on several entries. Another run (an overlapping execution, another worker) may have
 * inserted the same key meanwhile. Every run keeps the entry with the lowest id and deletes the
 * others, so overlapping runs repair the same way and converge. Costs one request per few hundred
 * thousand keys when there is no duplicate, and one in all after filling an empty data source
 * (`sourceWasEmpty`) that nobody else wrote to.
 */
export async function repairDuplicates(
	this: IExecuteFunctions,
	scope: RepairScope,
	checked: number[],
	sourceWasEmpty: boolean,
): Promise<Repair> {
	const { target, plan, counter } = scope;
	if (sourceWasEmpty && checked.length) {
		if (await holdsOnlyInserted.call(this, scope, checked.length)) return { removed: 0 };
	}
	const extra: number[] = [];
	const keySize = (itemIndex: number) => (plan.keys[itemIndex] as string).length + 4;
	for (const part of chunkBy(checked, Infinity, CHECK_BYTES, keySize)) {
		const where = keyFilters(scope, part);
		if (!(await mayHoldDuplicates.call(this, scope, part, where))) continue;
		const byKey = await entriesByKey.call(this, scope, part, where);
		for (const ids of byKey.values()) {
			const keep = Math.min(...ids);
			extra.push(...ids.filter((id) => id !== keep));
		}
	}
	if (extra.length) {
		counter.requests++;
		await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'commit'),
			qs: target.qs,
			body: { entries: [], append: true, delete: extra, returnEntries: false },
			// Deleting the same ids again changes nothing.
			idempotent: true,
		});
	}
	return { removed: extra.length };
}
