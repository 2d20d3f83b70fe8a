import type { IDataObject } from 'n8n-workflow';

/** Where the trigger stopped: the newest delivered time and the ids delivered at that time. */
export interface Cursor {
	/** What is watched (event, organization, data source, app...): a new one starts afresh. */
	key: string;
	/** ISO time of the newest delivered event; absent means every event is new. */
	at?: string;
	/** Ids already delivered at `at`, so events sharing that time are neither lost nor repeated. */
	ids: string[];
}

export interface EventSource {
	key: string;
	/** The newest event, or undefined when there is none. */
	latest(): Promise<IDataObject | undefined>;
	/** Pages of events at or after `since` (all when undefined), oldest first. */
	pages(since: string | undefined): AsyncIterable<IDataObject[]>;
	/** The time an event counts from (createdAt or updatedAt). */
	timeOf(event: IDataObject): string;
}

const ms = (time: string | undefined) => (time === undefined ? -Infinity : Date.parse(time));

/** A fresh cursor at the newest event, so history is not replayed on activation. */
export async function cursorAtLatest(source: EventSource): Promise<Cursor> {
	const latest = await source.latest();
	if (!latest) return { key: source.key, ids: [] };
	const at = source.timeOf(latest);
	const ids = new Set([String(latest.id)]);
	for await (const page of source.pages(at)) {
		for (const event of page) if (ms(source.timeOf(event)) === ms(at)) ids.add(String(event.id));
		if (page.some((event) => ms(source.timeOf(event)) > ms(at))) break;
	}
	return { key: source.key, at, ids: [...ids] };
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
	const from = ms(cursor.at);
	const skip = new Set(cursor.ids);
	const events: IDataObject[] = [];
	const taken = new Set<string>();
	reading: for await (const page of source.pages(cursor.at)) {
		for (const event of page) {
			const id = String(event.id);
			const time = ms(source.timeOf(event));
			if (time < from || (time === from && skip.has(id)) || taken.has(id)) continue;
			taken.add(id);
			events.push(event);
			if (events.length >= max) break reading;
		}
		if (stop()) break;
	}
	events.sort((a, b) => ms(source.timeOf(a)) - ms(source.timeOf(b)));
	if (!events.length) return { events, cursor };
	const at = source.timeOf(events[events.length - 1]);
	const newest = ms(at);
	const ids = events
		.filter((event) => ms(source.timeOf(event)) === newest)
		.map((e) => String(e.id));
	return {
		events,
		cursor: { key: cursor.key, at, ids: newest === from ? [...cursor.ids, ...ids] : ids },
	};
}
