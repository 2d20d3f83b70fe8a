import type { IDataObject } from 'n8n-workflow';

import { eventsSince, timeMs, type Cursor, type EventSource } from '../FlipletTrigger/cursor';
import type { HookEvent } from './hookList';

/** The most entry versions one call delivers; the rest come with the next call. */
export const MOST_PER_CALL = 1_000;

/** The time field whose changes make a new version: `createdAt` when only inserts start runs. */
export function versionField(events: HookEvent[]): 'createdAt' | 'updatedAt' {
	return events.includes('update') ? 'updatedAt' : 'createdAt';
}

/**
 * Whether a version starts a run for the chosen events. With "Entry Updated" alone, an entry never
 * changed since its insert (same `updatedAt` as `createdAt`) is no update: it is passed over.
 */
function chosen(entry: IDataObject, events: HookEvent[]): boolean {
	if (events.includes('insert')) return true;
	return timeMs(String(entry.updatedAt)) !== timeMs(String(entry.createdAt));
}

export interface Delivery {
	/** The new versions, oldest first, as the API stores them. */
	entries: IDataObject[];
	/** The record once they are delivered. */
	record: Cursor;
}

/**
 * What one signed call delivers: every version of an entry changed since `record`, at most
 * MOST_PER_CALL of them (the rest come with the next call). The call is a doorbell: it reads the
 * data source as the polling trigger does, so a call that never came is caught up by the next one.
 * Every version read is recorded, the ones the chosen events pass over included.
 */
export async function ringDoorbell(
	source: EventSource,
	record: Cursor,
	events: HookEvent[],
): Promise<Delivery> {
	const read = await eventsSince(source, record, MOST_PER_CALL, () => false);
	const entries = read.events
		.filter((entry) => chosen(entry, events))
		.sort((a, b) => timeMs(source.timeOf(a)) - timeMs(source.timeOf(b)));
	return { entries, record: read.cursor };
}
