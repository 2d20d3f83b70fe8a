import type { IDataObject } from 'n8n-workflow';

import { keepNewest, LATE_BY_MS } from '../Fliplet/helpers/deliveredVersions';
import {
	cursorAtLatest,
	eventsSince,
	storedCursor,
	timeMs,
	type Cursor,
	type EventSource,
} from '../FlipletTrigger/cursor';
import { MAX_REMEMBERED } from '../FlipletTrigger/lookBack';

/**
 * What an activation keeps in the workflow's static data: its secret, its data source, and what it
 * delivered, as the polling trigger's cursor (`cursor`: a floor, the versions delivered at or after
 * it, where reading resumes).
 */
export interface Activation extends IDataObject {
	secret?: string;
	dataSourceId?: number;
}

/** How many times publishing reads again while the minute before the hook keeps growing. */
const MOST_HISTORY_READS = 10;

/** The record of deliveries kept for `source`; none before the first, or for another source. */
export function savedRecord(stored: Activation, source: EventSource): Cursor | undefined {
	const cursor = storedCursor(stored);
	return cursor?.key === source.key ? cursor : undefined;
}

/**
 * The record an activation starts with once its hook is stored at `hookStoredAt` (the platform's
 * clock): every version from a minute before that moment, as far as the data source shows them
 * now, counts as history, so the first call delivers only what changed after, and a change stamped
 * a little earlier that shows up later (a lagging server clock, a commit begun just before) still
 * counts as new. Without that moment, the record starts at the newest entry, as the polling
 * trigger does.
 */
export async function startRecord(source: EventSource, hookStoredAt: unknown): Promise<Cursor> {
	const storedMs = typeof hookStoredAt === 'string' ? Date.parse(hookStoredAt) : NaN;
	if (Number.isNaN(storedMs)) return await cursorAtLatest(source);
	const latest = await source.latest();
	let record: Cursor = {
		key: source.key,
		floor: new Date(storedMs - LATE_BY_MS).toISOString(),
		delivered: [],
		// Reading starts near the newest entry, not at the first one of the data source.
		...(latest?.offset === undefined ? {} : { offset: latest.offset }),
	};
	if (!latest) return record;
	for (let read = 0; read < MOST_HISTORY_READS; read++) {
		const history = await eventsSince(source, record, MAX_REMEMBERED, () => false);
		record = history.cursor;
		if (!history.events.length) break;
	}
	return record;
}

/**
 * One record from two records of the same activation (the one n8n saved, the one this process
 * holds): a version delivered in either counts as delivered. Everything before the later floor
 * counts as delivered too, as it does for the record that moved its floor there.
 */
export function mergeRecords(
	saved: Cursor | undefined,
	held: Cursor | undefined,
): Cursor | undefined {
	if (!saved || !held || saved.key !== held.key) return saved ?? held;
	const [later, earlier] = timeMs(held.floor) > timeMs(saved.floor) ? [held, saved] : [saved, held];
	const kept = keepNewest(
		timeMs(later.floor),
		[...later.delivered, ...earlier.delivered],
		MAX_REMEMBERED,
	);
	const at = timeMs(held.at) > timeMs(saved.at) ? held.at : saved.at;
	return {
		key: saved.key,
		...(at === undefined ? {} : { at }),
		...(Number.isFinite(kept.floorMs) ? { floor: new Date(kept.floorMs).toISOString() } : {}),
		delivered: kept.versions,
		...(later.offset === undefined ? {} : { offset: later.offset }),
	};
}
