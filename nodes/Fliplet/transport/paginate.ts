import type { IDataObject } from 'n8n-workflow';

import { settledFlag } from '../helpers/settledFlag';
import { anySignal } from './abort';

export interface PageRequest {
	offset: number;
	limit: number;
}

/**
 * A page asked for further on came back starting with the same record as an earlier page: the
 * server ignores `offset`, and reading on would only repeat the same records.
 */
export class PageNotAdvancingError extends Error {
	readonly description =
		'The API answered a page further on with the records it had already sent (it ignored the offset), so the read stopped instead of asking for the same records again; nothing was returned. If a proxy or a custom base URL sits between n8n and Fliplet, check that it passes the offset on; otherwise report it to Fliplet.';

	constructor(offset: number) {
		super(
			`The Fliplet API answered the page at offset ${offset} with records of an earlier page: the read does not advance`,
		);
		this.name = 'PageNotAdvancingError';
	}
}

/**
 * The pages of an offset/limit list, in order, until `max` items (Infinity for all) or a short page.
 * `fetchPage` returns the items of one page. A page longer than asked means the endpoint ignores
 * `limit`/`offset`: its items are kept (up to `max`) and no further page is read, rather than
 * looping over the same list. A page that starts with the record the page before it started with
 * means the endpoint ignores `offset`: the read stops with a PageNotAdvancingError.
 * `servedPageSize`: where the server may serve fewer than asked (a cap below `pageSize`), a short
 * page ends the read only when it is also shorter than that cap.
 */
export async function* offsetPages<T = IDataObject>(
	fetchPage: (page: PageRequest) => Promise<T[]>,
	pageSize: number,
	max = Infinity,
	servedPageSize = Infinity,
): AsyncGenerator<{ offset: number; items: T[] }> {
	let offset = 0;
	let read = 0;
	let previousHead: string | undefined;
	while (read < max) {
		const limit = Math.min(Math.max(1, Math.floor(pageSize)), max - read);
		const page = await fetchPage({ offset, limit });
		const head = page.length ? JSON.stringify(page[0]) : undefined;
		if (head !== undefined && head === previousHead) throw new PageNotAdvancingError(offset);
		previousHead = head;
		const items = page.length > limit ? page.slice(0, max - read) : page;
		read += items.length;
		yield { offset, items };
		if (page.length > limit || page.length < Math.min(limit, servedPageSize)) return;
		offset += page.length;
	}
}

/** Every item of an offset/limit list, up to `max` (see offsetPages). */
export async function collectPages<T = IDataObject>(
	fetchPage: (page: PageRequest) => Promise<T[]>,
	max: number,
	pageSize: number,
): Promise<T[]> {
	const results: T[] = [];
	for await (const { items } of offsetPages(fetchPage, pageSize, max)) results.push(...items);
	return results;
}

/** One page of a list read in a fixed order, with the list's length if the API reported it. */
export interface OrderedPage<T> {
	items: T[];
	total?: number;
}

/**
 * How a stable read tells where it stands in the list's order: by comparing positions (the list is
 * ordered by a key the caller can compare, e.g. the entry id), or by identity (any other order).
 */
export type ReadOrder<T> =
	| {
			compare: (a: T, b: T) => number;
			/** The error to stop with when a page is not in that order: nothing read can be trusted. */
			outOfOrder: () => Error;
	  }
	| { idOf: (item: T) => string | number };

/** The new items of a page (maybe none) and the position of the first; `last` is the page's last item. */
export interface StablePage<T> {
	/** The request whose answer this page is. */
	request: PageRequest;
	offset: number;
	items: T[];
	last?: { item: T; at: number };
}

export interface StableReadOptions<T> {
	/** Resume after an anchor the caller already knows (e.g. where the last poll stopped). */
	start?: { anchor: T; offset: number };
	/**
	 * The most pages to ask for beyond the one the caller is handed, so that their round trips
	 * overlap with each other and with the caller's work. A read starts with half as many and adds
	 * one each time the caller waits for a page that has not arrived: a caller slower than the
	 * answers never has more on their way than it started with. A page asked for ahead is where the
	 * next one will be if nobody writes meanwhile; like any page, it is only used if it starts at or
	 * before the anchor (else it and those after it are dropped and asked for again). Only pages
	 * the reported total says hold something are asked for ahead (without a total, one, or those
	 * `expected` fills). Pages asked for ahead are wasted requests when the caller stops early: see
	 * `wanted`.
	 */
	ahead?: number;
	/** Stop asking ahead once the pages read and asked for can hold this many new items. */
	wanted?: number;
	/**
	 * Items the list is expected to hold, when the caller has a good guess (Sync: its input rows).
	 * The pages that many fill are asked for ahead from the start, before the first answer reports
	 * the total: a long read does not wait a round trip for it. A guess too high costs up to two
	 * requests answered with nothing (see FIRST_PAGES).
	 */
	expected?: number;
	/** Ends every page on its way (the caller gave up the read). */
	signal?: AbortSignal;
}

/**
 * The most pages a read that goes on keeps on their way beyond the one in use (see `ahead`). Over
 * an 80 ms round trip at 200 Mbit/s, pages of 5,000 entries (0.85 MB) need three or four on their
 * way to keep the link busy while the caller works; each page on its way is held in memory, parsed,
 * when it arrives before the caller wants it, which at 100,000 rows is felt against the input's
 * size.
 */
export const PAGES_AHEAD = 4;

/**
 * The most pages asked for before the first answer, when `expected` says the list holds more than
 * one. More would arrive together while the caller is still getting ready and wait in memory (or
 * come back empty when the guess is wrong).
 */
const FIRST_PAGES = 3;

/** Entries re-read before the anchor after a page came back past it (doubled on each retry). */
const FIRST_STEP_BACK = 16;

interface PageInFlight<T> {
	request: PageRequest;
	answer: Promise<OrderedPage<T>>;
	/** Whether the answer is in, whatever it is. */
	arrival: { settled: boolean };
	/** Abandons the request, when its page is dropped. */
	abandon: AbortController;
}

/**
 * Reads a live list page by page so that every item present during the whole read is yielded
 * exactly once, whatever others insert or delete meanwhile (offset paging alone skips an item for
 * each one deleted before the current page). Each page after the first starts at the last item
 * read (the anchor) and is only used when it starts at or before it: then it is a contiguous run of
 * the order that holds everything after the anchor up to its last item, whenever the server read
 * it (so pages may be asked for ahead, see `ahead`). A page that starts past the anchor means items
 * before it were deleted: it is read again from further back. Yields the new items of each page
 * (maybe none) with the position of the first of them, and where the page ended. Stops at the end
 * of the list (the reported total, else the first page with nothing new). A page asked for further
 * on than the first page (or the one before it) that starts with the same item means the server
 * ignores `offset`: the read stops with a PageNotAdvancingError. `fetchPage` gets a signal that
 * aborts when its page is dropped or the read ends: pages nobody will use do not go on.
 */
export async function* stablePages<T>(
	fetchPage: (page: PageRequest, signal: AbortSignal) => Promise<OrderedPage<T>>,
	order: ReadOrder<T>,
	pageSize: number,
	options: StableReadOptions<T> = {},
): AsyncGenerator<StablePage<T>> {
	const { start, ahead = 0, wanted = Infinity, expected = 0 } = options;
	const size = Math.max(1, Math.floor(pageSize));
	const seen = 'idOf' in order ? new Set<string | number>() : undefined;
	let anchor = start?.anchor;
	let anchorAt = start?.offset ?? 0;
	let back = 0;
	let total: number | undefined;
	let handedOver = 0;
	const isNew = (item: T) =>
		'idOf' in order
			? !seen!.has(order.idOf(item))
			: anchor === undefined || order.compare(item, anchor) > 0;
	const nextRequest = (): PageRequest => {
		const offset = anchor === undefined ? 0 : Math.max(0, anchorAt - back);
		return { offset, limit: anchor === undefined ? size : size + anchorAt - offset + 1 };
	};
	const queue: Array<PageInFlight<T>> = [];
	const dropQueued = () => {
		for (const page of queue.splice(0)) page.abandon.abort();
	};
	let reach = Math.ceil(ahead / 2);
	const send = (request: PageRequest): PageInFlight<T> => {
		const abandon = new AbortController();
		const answer = fetchPage(request, anySignal([abandon.signal, options.signal])!);
		// Awaited in its turn; if it is dropped or the caller stops first, its failure concerns no one.
		return { request, answer, arrival: settledFlag(answer), abandon };
	};
	const sameItem = (a: T, b: T) =>
		'idOf' in order ? order.idOf(a) === order.idOf(b) : order.compare(a, b) === 0;
	/** The first item of the first page used and of the last one, with the offsets they were asked at. */
	let firstHead: { offset: number; item: T } | undefined;
	let lastHead: { offset: number; item: T } | undefined;
	/**
	 * Keeps the next page and those after it on their way, while they can hold anything; `inUse` is
	 * 0 before the first page, when the next page is not yet one beyond a page in use.
	 */
	const askAhead = (inUse = 1) => {
		if (handedOver >= wanted) return;
		const next = nextRequest();
		const head = queue[0]?.request;
		if (head && (head.offset !== next.offset || head.limit !== next.limit)) dropQueued();
		if (!queue.length) queue.push(send(next));
		// Without the total, only the pages `expected` fills are thought to hold anything.
		const room = inUse ? reach : Math.min(reach + 1, FIRST_PAGES);
		const expectedPages = Math.max(1, Math.ceil((expected - handedOver) / size));
		const most = total === undefined ? Math.min(expectedPages, room) : room;
		while (queue.length < most && handedOver + queue.length * size < wanted) {
			const last = queue[queue.length - 1].request;
			// Where the page after `last` starts when nobody writes meanwhile: at its last item.
			const offset = last.offset + last.limit - 1;
			if (total !== undefined && offset + 1 >= total) break;
			queue.push(send({ offset, limit: size + 1 }));
		}
	};
	/**
	 * Takes the next page (the `taken`-th): its new items and whether the read ends there, or
	 * undefined when it was dropped to be read again from further back. Its answer is held only by
	 * this call: once the caller has its items, nothing here keeps the page.
	 */
	const takePage = async (
		taken: number,
	): Promise<{ page: StablePage<T>; done: boolean } | undefined> => {
		const next = queue.shift() ?? send(nextRequest());
		// The caller waits for this page: more pages on their way would have covered the wait.
		if (taken > 0 && !next.arrival.settled) reach = Math.min(reach + 1, ahead);
		const { request, answer } = next;
		const { offset, limit } = request;
		const { items, total: reported } = await answer;
		total = reported;
		if (items.length) {
			for (const earlier of [firstHead, lastHead]) {
				if (earlier && offset > earlier.offset && sameItem(earlier.item, items[0]))
					throw new PageNotAdvancingError(offset);
			}
			lastHead = { offset, item: items[0] };
			firstHead ??= lastHead;
		}
		if ('compare' in order) {
			for (let index = 1; index < items.length; index++) {
				if (order.compare(items[index - 1], items[index]) >= 0) throw order.outOfOrder();
			}
		}
		const reachesAnchor =
			'idOf' in order
				? items.some((item) => seen!.has(order.idOf(item)))
				: items.length > 0 && !isNew(items[0]);
		if (anchor !== undefined && offset > 0 && !reachesAnchor) {
			back = back ? back * 2 : FIRST_STEP_BACK;
			dropQueued();
			return undefined;
		}
		back = 0;
		const fresh: T[] = [];
		let firstAt = -1;
		for (const [index, item] of items.entries()) {
			if (!isNew(item)) continue;
			if (firstAt < 0) firstAt = offset + index;
			fresh.push(item);
			seen?.add((order as { idOf: (item: T) => string | number }).idOf(item));
			anchor = item;
			anchorAt = offset + index;
		}
		const last = items.length
			? { item: items[items.length - 1], at: offset + items.length - 1 }
			: undefined;
		const atEnd = total !== undefined && offset + items.length >= total;
		const done = atEnd || (!fresh.length && items.length < limit);
		// A full page of items already read (others inserted before the anchor): move past it.
		if (!done && !fresh.length) anchorAt = offset + items.length - 1;
		handedOver += fresh.length;
		if (!done && ahead > 0) askAhead();
		return { page: { request, offset: fresh.length ? firstAt : offset, items: fresh, last }, done };
	};
	try {
		if (expected > size && ahead > 0) askAhead(0);
		for (let taken = 0; ; taken++) {
			let taking = await takePage(taken);
			if (!taking) continue;
			const { done } = taking;
			yield taking.page;
			// The caller is done with this page: it is not held while the next one travels.
			taking = undefined;
			if (done) return;
		}
	} finally {
		// Pages asked for ahead that nobody will use are abandoned.
		dropQueued();
	}
}
