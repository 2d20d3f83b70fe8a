import type { IExecuteFunctions } from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { CREDENTIAL_NAME, tokenKey } from '../../../transport';

/**
 * How long, after a read of this n8n process saw entries carrying the key columns, a targeted read
 * that finds no entry is trusted not to come from a misspelt key column (see probeKeyColumns).
 */
export const KEY_COLUMNS_TRUSTED_MS = 10 * 60_000;
/** Data sources remembered at most; the oldest is forgotten first. */
const MOST_REMEMBERED = 500;

/**
 * When each data source (by credential, data source and key columns) was last seen holding
 * entries that carry its key columns. It only spares the look for a key column in a run whose
 * keys are all new; what a run writes never rests on it. A column renamed since is refused again
 * once the memory is that old, and another process or a restart starts without it.
 */
const seenCarrying = new Map<string, number>();

async function memoryKey(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
): Promise<string> {
	const { accessToken, region, baseUrl } = await this.getCredentials(CREDENTIAL_NAME);
	return `${tokenKey(accessToken)} ${JSON.stringify([region, baseUrl, target.ref, target.qs, keyColumns])}`;
}

/** Notes that a read of `target` met entries carrying the key columns. */
export async function rememberKeyColumns(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
): Promise<void> {
	const key = await memoryKey.call(this, target, keyColumns);
	seenCarrying.delete(key);
	seenCarrying.set(key, Date.now());
	if (seenCarrying.size > MOST_REMEMBERED)
		seenCarrying.delete(seenCarrying.keys().next().value as string);
}

/** Whether a read of `target` met entries carrying the key columns lately (KEY_COLUMNS_TRUSTED_MS). */
export async function keyColumnsSeenLately(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
): Promise<boolean> {
	const seenAt = seenCarrying.get(await memoryKey.call(this, target, keyColumns));
	return seenAt !== undefined && Date.now() - seenAt < KEY_COLUMNS_TRUSTED_MS;
}

/** Forgets every data source, as a restarted n8n would (for tests whose sandbox starts over). */
export function forgetKeyColumns(): void {
	seenCarrying.clear();
}
