import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { rememberBounded } from '../../helpers/boundedMemory';
import { credentialKey } from '../../transport';

/** How long the lists one search read serve the searches typed after it. */
export const SEARCH_LISTS_FRESH_MS = 30_000;
/** Lists remembered at most (per credential and scope); the oldest is forgotten first. */
const MOST_REMEMBERED = 50;

const remembered = new Map<string, { at: number; lists: unknown }>();

/**
 * The lists a picker's search shows, read by `read`. The editor searches again at each letter typed
 * into the filter: those searches reuse what the last one read, for SEARCH_LISTS_FRESH_MS. A search
 * without a filter (the list being opened) always reads afresh, so a data source created a moment
 * ago shows when the list is opened again. Only what the picker shows rests on this memory: it is
 * per process, and a run never reads it.
 */
export async function searchLists<T>(
	context: ILoadOptionsFunctions,
	scope: string,
	filter: string | undefined,
	read: () => Promise<T>,
): Promise<T> {
	const key = `${await credentialKey.call(context)} ${scope}`;
	const known = remembered.get(key);
	if (filter && known && Date.now() - known.at < SEARCH_LISTS_FRESH_MS) return known.lists as T;
	const lists = await read();
	rememberBounded(remembered, key, { at: Date.now(), lists }, MOST_REMEMBERED);
	return lists;
}

/** Forgets every list, as a restarted n8n would (for tests whose sandbox starts over). */
export function forgetSearchLists(): void {
	remembered.clear();
}
