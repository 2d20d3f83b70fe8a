import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import type { ReadColumns } from './attributes';
import { chunkBy } from './chunks';
import { filterableColumns, findableByKey, keyBytes, keyFilters } from './keyFilters';
import { readById, type EntryVisit } from './readEntries';
import { readSizes } from './readSizes';
import type { RequestCount } from './requestCount';

/** What a targeted read looks for: entries holding one of `keys` in `keyColumns`. */
export interface KeyLookup {
	keyColumns: string[];
	/** Distinct keys, as rowKey makes them. */
	keys: string[];
	columns: ReadColumns;
}

/**
 * Whether `oneof` can find every entry holding these keys: key columns it names without doubt,
 * and no key that may be an object's JSON. Otherwise the whole data source is read.
 */
export function canReadByKeys({ keyColumns, keys }: Pick<KeyLookup, 'keyColumns' | 'keys'>) {
	if (!filterableColumns(keyColumns)) return false;
	return keys.every((key) => findableByKey(key, keyColumns.length));
}

/**
 * The keys of each request of a read by key (by count and bytes, see readSizes): the one chunking
 * rule of the read, the recovery and the repair. With no count set (0: the main read never reads
 * by key), the bytes alone bound a request.
 */
export function keyChunks(keys: string[]): string[][] {
	const count = readSizes.targetedKeys > 0 ? readSizes.targetedKeys : Infinity;
	return chunkBy(keys, count, readSizes.targetedBytes, keyBytes);
}

/**
 * Reads the entries that may hold one of the keys (see keyFilters: a superset) with a `where`
 * per chunk of keys, each chunk in stable pages by id (see readById), and hands each entry to
 * `visit` once, in id order, after the last request: an entry may match the filters of several
 * chunks, and a key's entries must come oldest first, as in a full read.
 */
export async function readByKeys(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	lookup: KeyLookup,
	visit: EntryVisit,
	counter: RequestCount,
): Promise<void> {
	const found = new Map<number, IDataObject>();
	const keep: EntryVisit = (id, data) => {
		found.set(id, data);
	};
	for (const keys of keyChunks(lookup.keys)) {
		const read = {
			columns: lookup.columns,
			where: keyFilters(lookup.keyColumns, keys),
			expected: keys.length,
			prepare: async () => keep,
		};
		await readById.call(this, target, read, counter);
	}
	for (const id of [...found.keys()].sort((a, b) => a - b)) visit(id, found.get(id)!);
}

/**
 * The entries that may hold the keys, each once, in id order: read by key when `oneof` can be
 * trusted with them (see canReadByKeys), else (or with `wholeSource`) every entry of the data
 * source, for `visit` to tell apart.
 */
export async function readHolding(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	lookup: KeyLookup,
	visit: EntryVisit,
	counter: RequestCount,
	wholeSource = false,
): Promise<void> {
	if (!wholeSource && canReadByKeys(lookup)) {
		await readByKeys.call(this, target, lookup, visit, counter);
		return;
	}
	await readById.call(
		this,
		target,
		{ columns: lookup.columns, prepare: async () => visit },
		counter,
	);
}
