import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../Fliplet/helpers/isObject';

/** Where the trigger stopped: the newest delivered time and the ids delivered at that time. */
export interface Cursor {
	/** What is watched (event, organization, data source, app...): a new one starts afresh. */
	key: string;
	/** ISO time of the newest delivered event; absent means every event is new. */
	at?: string;
	/** Ids already delivered at `at`, so events sharing that time are neither lost nor repeated. */
	ids: string[];
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
	 * the previous poll stopped; a source may start there once it made sure nothing new is before.
	 * `wanted`, when given, is how many events the caller means to take: a source that reads pages
	 * ahead reads no further ahead than that.
	 */
	pages(since: string | undefined, offsetHint: number, wanted?: number): AsyncIterable<EventPage>;
	/** The time an event counts from (createdAt or updatedAt). */
	timeOf(event: IDataObject): string;
}

/** The cursor kept in the node's static data; undefined before the first poll (or if unreadable). */
export function storedCursor(staticData: IDataObject): Cursor | undefined {
	const stored = staticData.cursor;
	if (!isObject(stored) || typeof stored.key !== 'string' || !Array.isArray(stored.ids)) {
		return undefined;
	}
	return {
		key: stored.key,
		ids: stored.ids.map(String),
		...(typeof stored.at === 'string' ? { at: stored.at } : {}),
		...(typeof stored.offset === 'number' ? { offset: stored.offset } : {}),
	};
}

/** Keeps the cursor in the node's static data, which n8n saves after the poll. */
export function storeCursor(staticData: IDataObject, cursor: Cursor): void {
	staticData.cursor = {
		key: cursor.key,
		ids: cursor.ids,
		...(cursor.at === undefined ? {} : { at: cursor.at }),
		...(cursor.offset === undefined ? {} : { offset: cursor.offset }),
	};
}

export const timeMs = (time: string | undefined) =>
	time === undefined ? -Infinity : Date.parse(time);

/** A fresh cursor at the newest event, so history is not replayed on activation. */
export async function cursorAtLatest(source: EventSource): Promise<Cursor> {
	const latest = await source.latest();
	if (!latest) return { key: source.key, ids: [] };
	const at = source.timeOf(latest.event);
	const ids = new Set([String(latest.event.id)]);
	let offset: number | undefined;
	for await (const page of source.pages(at, latest.offset ?? 0)) {
		for (const [index, event] of page.events.entries()) {
			if (timeMs(source.timeOf(event)) === timeMs(at)) ids.add(String(event.id));
			offset = page.offset + index;
		}
		if (page.events.some((event) => timeMs(source.timeOf(event)) > timeMs(at))) break;
	}
	// The position read up to lets the next polls start there instead of at the first event.
	return { key: source.key, at, ids: [...ids], ...(offset === undefined ? {} : { offset }) };
}

/**
 * The events after the cursor, oldest first, at most `max` of them (the rest wait for the next
 * poll), and the cursor to store once they are delivered. `stop` ends the reading early (time
 * budget) without losing anything: the cursor only covers what is returned.
 */
export async function eventsSince(
	source: EventSource,
	cursor: Cursor,
	max: number,
	stop: () => boolean,
): Promise<{ events: IDataObject[]; cursor: Cursor }> {
	const from = timeMs(cursor.at);
	const skip = new Set(cursor.ids);
	const found: Array<{ event: IDataObject; position: number }> = [];
	const taken = new Set<string>();
	let lastRead: number | undefined;
	reading: for await (const page of source.pages(cursor.at, cursor.offset ?? 0, max)) {
		for (const [index, event] of page.events.entries()) {
			lastRead = page.offset + index;
			const id = String(event.id);
			const time = timeMs(source.timeOf(event));
			if (time < from || (time === from && skip.has(id)) || taken.has(id)) continue;
			taken.add(id);
			found.push({ event, position: page.offset + index });
			if (found.length >= max) break reading;
		}
		if (stop()) break;
	}
	if (!found.length) {
		// Everything read was old: the next poll may start near where this one ended (the source
		// checks the hint), so an idle source is not read from its first event on every poll.
		return {
			events: [],
			cursor: lastRead === undefined ? cursor : { ...cursor, offset: lastRead },
		};
	}
	found.sort((a, b) => timeMs(source.timeOf(a.event)) - timeMs(source.timeOf(b.event)));
	const events = found.map(({ event }) => event);
	const at = source.timeOf(events[events.length - 1]);
	const newest = timeMs(at);
	const ids = events
		.filter((event) => timeMs(source.timeOf(event)) === newest)
		.map((event) => String(event.id));
	return {
		events,
		cursor: {
			key: cursor.key,
			at,
			ids: newest === from ? [...cursor.ids, ...ids] : ids,
			offset: Math.max(...found.map(({ position }) => position)),
		},
	};
}
