import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { rememberBounded } from '../../../helpers/boundedMemory';
import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { credentialKey } from '../../../transport';
import { findableByKey } from './keyFilters';
import { rowKey } from './keys';

/**
 * How long, after a read of this n8n process saw an entry carrying the key columns, a targeted read
 * may look for that entry (its witness) instead of the look for a key column (see probeKeyColumns).
 */
export const KEY_COLUMNS_TRUSTED_MS = 10 * 60_000;
/** Data sources remembered at most; the oldest is forgotten first. */
const MOST_REMEMBERED = 500;

/**
 * For each data source (by credential, data source and key columns), an entry lately seen carrying
 * its key columns, by its key (the witness), and when. It only spares the look for a key column in
 * a run whose keys are all new, and only as long as the data source shows it still holds the key
 * columns: the run's read by key asks for the witness's key beside the rows' keys, in the same
 * request; the entry found carrying the key column settles it, none found (the column renamed, the
 * entry deleted or changed) makes the run look as a fresh process does. What a run writes never
 * rests on it; another process or a restart starts without it.
 */
const witnesses = new Map<string, { at: number; key: string }>();

async function memoryKey(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
): Promise<string> {
	return `${await credentialKey.call(this)} ${JSON.stringify([target.ref, target.qs, keyColumns])}`;
}

/**
 * The key of an entry carrying every key column, when a read by key (`oneof`) can find it again:
 * not a key that may be an object's JSON.
 */
export function witnessKey(
	data: IDataObject,
	keyColumns: string[],
	ignoreKeyCase: boolean,
): string | undefined {
	const found = rowKey(data, keyColumns, ignoreKeyCase);
	if (!('key' in found)) return undefined;
	return findableByKey(found.key, keyColumns.length) ? found.key : undefined;
}

/** Notes that a read of `target` met an entry carrying the key columns, holding the key `key`. */
export async function rememberKeyColumns(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
	key: string,
): Promise<void> {
	const remembered = await memoryKey.call(this, target, keyColumns);
	rememberBounded(witnesses, remembered, { at: Date.now(), key }, MOST_REMEMBERED);
}

/**
 * The key of an entry a read of `target` met carrying the key columns lately (within
 * KEY_COLUMNS_TRUSTED_MS), if any.
 */
export async function keyColumnWitness(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
): Promise<string | undefined> {
	const seen = witnesses.get(await memoryKey.call(this, target, keyColumns));
	return seen !== undefined && Date.now() - seen.at < KEY_COLUMNS_TRUSTED_MS ? seen.key : undefined;
}

/** Forgets every data source, as a restarted n8n would (for tests whose sandbox starts over). */
export function forgetKeyColumns(): void {
	witnesses.clear();
}
