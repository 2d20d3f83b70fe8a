import type { IDataObject } from 'n8n-workflow';

import { keepNewest, versionKey } from '../Fliplet/helpers/deliveredVersions';
import { eventsSince, timeMs, type Cursor, type EventSource } from '../FlipletTrigger/cursor';
import { MAX_REMEMBERED } from '../FlipletTrigger/lookBack';
import type { HookEvent } from './hookList';

/** The most entry versions one call delivers; the rest come with the next call. */
export const MOST_PER_CALL = 1_000;

/**
 * The entry id a hook call carries, when the platform rendered one: a positive whole number. An
 * empty value, the template itself (`{{{entry.id}}}`) or anything else names no entry.
 */
export function namedEntryId(body: IDataObject): string | undefined {
	const value = typeof body.entryId === 'number' ? String(body.entryId) : body.entryId;
	if (typeof value !== 'string') return undefined;
	const id = value.trim();
	return /^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) ? id : undefined;
}

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
 * What one signed call delivers: every version of an entry changed since `record` (the call is a
 * doorbell; it reads the data source as the polling trigger does, so a call that never came is
 * caught up by the next one), and, when the call names an entry the read did not show, that entry
 * as `readNamed` reads it by its id, if its version is new. Every version read is recorded, the
 * ones the chosen events pass over included.
 */
export async function ringDoorbell(
	source: EventSource,
	record: Cursor,
	events: HookEvent[],
	named: { id: string; read: () => Promise<IDataObject | undefined> } | undefined,
): Promise<Delivery> {
	const read = await eventsSince(source, record, MOST_PER_CALL, () => false);
	const found = [...read.events];
	let next = read.cursor;
	if (named && !found.some((entry) => String(entry.id) === named.id)) {
		const entry = await named.read();
		const changedMs = entry ? timeMs(source.timeOf(entry)) : NaN;
		const version = versionKey(named.id, changedMs);
		const isNew =
			entry !== undefined &&
			String(entry.id) === named.id &&
			changedMs >= timeMs(record.floor) &&
			!record.delivered.includes(version) &&
			!next.delivered.includes(version);
		if (isNew) {
			found.push(entry);
			const kept = keepNewest(timeMs(next.floor), [...next.delivered, version], MAX_REMEMBERED);
			next = {
				...next,
				...(Number.isFinite(kept.floorMs) ? { floor: new Date(kept.floorMs).toISOString() } : {}),
				delivered: kept.versions,
			};
		}
	}
	const entries = found
		.filter((entry) => chosen(entry, events))
		.sort((a, b) => timeMs(source.timeOf(a)) - timeMs(source.timeOf(b)));
	return { entries, record: next };
}
