import type { IDataObject } from 'n8n-workflow';

export interface PageRequest {
	offset: number;
	limit: number;
}

/**
 * Reads an offset/limit list page by page until `max` items (Infinity for all) or a short page.
 * `fetchPage` returns the items of one page. A page longer than asked means the endpoint ignores
 * `limit`/`offset`: its items are kept (up to `max`) and no further page is read, rather than
 * looping over the same list.
 */
export async function collectPages<T = IDataObject>(
	fetchPage: (page: PageRequest) => Promise<T[]>,
	max: number,
	pageSize: number,
): Promise<T[]> {
	const results: T[] = [];
	let offset = 0;
	while (results.length < max) {
		const limit = Math.min(Math.max(1, Math.floor(pageSize)), max - results.length);
		const page = await fetchPage({ offset, limit });
		if (page.length > limit) {
			results.push(...page.slice(0, max - results.length));
			break;
		}
		results.push(...page);
		if (page.length < limit) break;
		offset += page.length;
	}
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
	offset: number;
	items: T[];
	last?: { item: T; at: number };
}

export interface StableReadOptions<T> {
	/** Resume after an anchor the caller already knows (e.g. where the last poll stopped). */
	start?: { anchor: T; offset: number };
	/**
	 * Ask for the next page before handing over the current one, so the server works on it while
	 * the caller processes this one. Only for callers that read to the end: one page more is asked
	 * for when the caller stops early.
	 */
	prefetch?: boolean;
}

/** Entries re-read before the anchor after a page came back past it (doubled on each retry). */
const FIRST_STEP_BACK = 16;

/**
 * Reads a live list page by page so that every item present during the whole read is yielded
 * exactly once, whatever others insert or delete meanwhile (offset paging alone skips an item for
 * each one deleted before the current page). Each page after the first starts at the last item
 * read (the anchor) and is only used when it starts at or before it: then it is a contiguous run of
 * the order that holds everything after the anchor up to its last item. A page that starts past
 * the anchor means items before it were deleted: it is read again from further back. Yields the
 * new items of each page (maybe none) with the position of the first of them, and where the page
 * ended. Stops at the end of the list (the reported total, else the first page with nothing new).
 */
export async function* stablePages<T>(
	fetchPage: (page: PageRequest) => Promise<OrderedPage<T>>,
	order: ReadOrder<T>,
	pageSize: number,
	options: StableReadOptions<T> = {},
): AsyncGenerator<StablePage<T>> {
	const { start } = options;
	const size = Math.max(1, Math.floor(pageSize));
	const seen = 'idOf' in order ? new Set<string | number>() : undefined;
	let anchor = start?.anchor;
	let anchorAt = start?.offset ?? 0;
	let back = 0;
	const isNew = (item: T) =>
		'idOf' in order
			? !seen!.has(order.idOf(item))
			: anchor === undefined || order.compare(item, anchor) > 0;
	const nextRequest = (): PageRequest => {
		const offset = anchor === undefined ? 0 : Math.max(0, anchorAt - back);
		return { offset, limit: anchor === undefined ? size : size + anchorAt - offset + 1 };
	};
	let ahead: { request: PageRequest; answer: Promise<OrderedPage<T>> } | undefined;
	for (;;) {
		const request = ahead?.request ?? nextRequest();
		const answer = ahead?.answer ?? fetchPage(request);
		ahead = undefined;
		const { offset, limit } = request;
		const { items, total } = await answer;
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
			continue;
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
		if (!done && options.prefetch) {
			const next = nextRequest();
			ahead = { request: next, answer: fetchPage(next) };
			// Awaited on the next turn; if the caller stops first, its failure concerns no one.
			ahead.answer.catch(() => undefined);
		}
		yield { offset: fresh.length ? firstAt : offset, items: fresh, last };
		if (done) return;
	}
}
