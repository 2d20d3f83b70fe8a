import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../Fliplet/helpers/isObject';
import { versionKey } from '../Fliplet/helpers/deliveredVersions';
import { lookBack } from './lookBack';

/**
 * Where the trigger stands: every event before `floor` counts as delivered (or as history), and of
 * the events at or after it, the versions in `delivered` were delivered. Each poll reads from the
 * floor, so an event that shows up late with an earlier time is still delivered (see lookBack).
 */
export interface Cursor {
	/** What is watched (event, organization, data source, app...): a new one starts afresh. */
	key: string;
	/** ISO time of the newest delivered event (absent before the first). */
	at?: string;
	/** ISO time the next read starts at; absent means every event is new. */
	floor?: string;
	/** `id@time` of each version delivered at or after `floor`. */
	delivered: string[];
	/** Where a source without a time filter may start reading next time (it checks the hint). */
	offset?: number;
}

/** A page of events and the position of its first event in the source's order. */
export interface EventPage {
	offset: number;
	events: IDataObject[];
}

export interface EventSource {
	key: string;
	/**
	 * The newest event, or undefined when there is none; with its offset in the order `pages` reads
	 * when the source can tell, so the events sharing its time are found without reading them all.
	 */
	latest(): Promise<{ event: IDataObject; offset?: number } | undefined>;
	/**
	 * Pages of events at or after `since` (all when undefined), oldest first. `offsetHint` is where
	 * the previous poll saw the first event at or after `since`; a source may start there once it
	 * made sure nothing new is before. `wanted`, when given, is how many events the caller means to
	 * take: a source that reads pages ahead reads no further ahead than that.
	 */
	pages(since: string | undefined, offsetHint: number, wanted?: number): AsyncIterable<EventPage>;
	/** The time an event counts from (createdAt or updatedAt). */
	timeOf(event: IDataObject): string;
}

export const timeMs = (time: string | undefined) =>
	time === undefined ? -Infinity : Date.parse(time);

/** The cursor kept in the node's static data; undefined before the first poll (or if unreadable). */
export function storedCursor(staticData: IDataObject): Cursor | undefined {
	const stored = staticData.cursor;
	if (!isObject(stored) || typeof stored.key !== 'string') return undefined;
	const at = typeof stored.at === 'string' ? stored.at : undefined;
	const offset = typeof stored.offset === 'number' ? { offset: stored.offset } : {};
	if (Array.isArray(stored.delivered)) {
		const floor = typeof stored.floor === 'string' ? { floor: stored.floor } : {};
		return {
			key: stored.key,
			...(at ? { at } : {}),
			...floor,
			delivered: stored.delivered.map(String),
			...offset,
		};
	}
	// A cursor from before the look-back: the ids delivered at its newest time.
	if (!Array.isArray(stored.ids)) return undefined;
	if (at === undefined) return { key: stored.key, delivered: [], ...offset };
	const delivered = stored.ids.map((id) => versionKey(String(id), timeMs(at)));
	return { key: stored.key, at, floor: at, delivered, ...offset };
}

/** Keeps the cursor in the node's static data, which n8n saves after the poll. */
export function storeCursor(staticData: IDataObject, cursor: Cursor): void {
	staticData.cursor = {
		key: cursor.key,
		...(cursor.at === undefined ? {} : { at: cursor.at }),
		...(cursor.floor === undefined ? {} : { floor: cursor.floor }),
		delivered: cursor.delivered,
		...(cursor.offset === undefined ? {} : { offset: cursor.offset }),
	};
}

/** A fresh cursor at the newest event, so history is not replayed on activation. */
export async function cursorAtLatest(source: EventSource): Promise<Cursor> {
	const latest = await source.latest();
	if (!latest) return { key: source.key, delivered: [] };
	const at = source.timeOf(latest.event);
	const newest = timeMs(at);
	const delivered = new Set([versionKey(String(latest.event.id), newest)]);
	let firstAt: number | undefined;
	for await (const page of source.pages(at, latest.offset ?? 0)) {
		for (const [index, event] of page.events.entries()) {
			if (timeMs(source.timeOf(event)) !== newest) continue;
			delivered.add(versionKey(String(event.id), newest));
			firstAt ??= page.offset + index;
		}
		if (page.events.some((event) => timeMs(source.timeOf(event)) > newest)) break;
	}
	const offset = firstAt ?? latest.offset;
	// Events stamped before the newest one are history, even if they show up later.
	return {
		key: source.key,
		at,
		floor: at,
		delivered: [...delivered],
		...(offset === undefined ? {} : { offset }),
	};
}

interface NewEvent {
	event: IDataObject;
	timeMs: number;
	version: string;
}

/**
 * The events after the cursor, oldest first, at most `max` of them (the rest wait for the next
 * poll), and the cursor to store once they are delivered. An entry read twice in one poll (changed
 * while the poll was paging) is delivered once, as read last. `stop` ends the reading early (time
 * budget) without losing anything, once it can leave the next poll further on: the rest comes
 * later.
 */
export async function eventsSince(
	source: EventSource,
	cursor: Cursor,
	max: number,
	stop: () => boolean,
): Promise<{ events: IDataObject[]; cursor: Cursor }> {
	const floorMs = timeMs(cursor.floor);
	const delivered = new Set(cursor.delivered);
	const found = new Map<string, NewEvent>();
	const read: Array<{ position: number; timeMs: number }> = [];
	let pastFloor = false;
	reading: for await (const page of source.pages(cursor.floor, cursor.offset ?? 0, max)) {
		for (const [index, event] of page.events.entries()) {
			const time = timeMs(source.timeOf(event));
			read.push({ position: page.offset + index, timeMs: time });
			if (time < floorMs) continue;
			pastFloor = true;
			const id = String(event.id);
			const version = versionKey(id, time);
			// A copy read later is the entry as it is now: it replaces the one read before.
			found.delete(id);
			if (delivered.has(version)) continue;
			found.set(id, { event, timeMs: time, version });
			if (found.size >= max) break reading;
		}
		// Stopping inside the look-back before finding anything would leave the next poll where this
		// one started; before the floor, the next poll starts where this one stopped.
		if ((found.size || !pastFloor) && stop()) break;
	}
	const events = [...found.values()].sort((a, b) => a.timeMs - b.timeMs);
	const newest = events[events.length - 1];
	let next: Cursor = cursor;
	if (newest) {
		const previousNewest = timeMs(cursor.at);
		const at = newest.timeMs > previousNewest ? source.timeOf(newest.event) : cursor.at;
		const window = lookBack(floorMs, Math.max(previousNewest, newest.timeMs), [
			...cursor.delivered,
			...events.map(({ version }) => version),
		]);
		// A time that does not parse leaves the floor where it was.
		const floor = Number.isFinite(window.floorMs)
			? new Date(window.floorMs).toISOString()
			: cursor.floor;
		next = {
			key: cursor.key,
			...(at === undefined ? {} : { at }),
			...(floor === undefined ? {} : { floor }),
			delivered: window.versions,
		};
	}
	const offset = resumePosition(read, timeMs(next.floor)) ?? cursor.offset;
	return {
		events: events.map(({ event }) => event),
		cursor: { ...next, ...(offset === undefined ? {} : { offset }) },
	};
}

/**
 * Where the next poll may start reading: the first event read at or after the floor, else just
 * past the last one read (so an idle source is not read from its first event on every poll).
 */
function resumePosition(
	read: Array<{ position: number; timeMs: number }>,
	floorMs: number,
): number | undefined {
	const first = read.find((event) => event.timeMs >= floorMs);
	if (first) return first.position;
	const last = read[read.length - 1];
	return last && last.position + 1;
}
