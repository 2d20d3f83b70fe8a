/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The edges of the shared rate windows and of offset and stable paging, tested on the exported
// helpers directly: which requests share a window, the exact millisecond a place frees, when an
// idle window is forgotten, which page is asked for next and when a read stops.
import {
	PageNotAdvancingError,
	collectPages,
	offsetPages,
	stablePages,
	type OrderedPage,
	type PageRequest,
	type StableReadOptions,
} from '../../nodes/Fliplet/transport/paginate';
import {
	aiPlanOf,
	forgetRateWindows,
	rateWindowFor,
	RequestWindow,
	sendPaced,
} from '../../nodes/Fliplet/transport/pacing';

const HOST = 'https://api.fliplet.com';
const DATA = '/v1/data-sources/7/data';
const one = { accessToken: 'eu--one' };

/** A promise and the function that settles it, for a request that answers when the test says so. */
function deferred<T = void>() {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((settle) => (resolve = settle));
	return { promise, resolve };
}

describe('rate windows: which requests share one', () => {
	afterEach(() => forgetRateWindows());

	it.each([
		['/v1/data-sources', 200, 10_000],
		['/v1/data-sources/7/data', 200, 10_000],
		['/v1/data-sources?type=bookings', 200, 10_000],
		['/v1/communicate/email', 20, 30_000],
		['/v1/communicate/sms/batch', 20, 30_000],
		['/v1/organizations/5/logs', 30, 10_000],
		['/v1/organizations/5/logs?limit=10', 30, 10_000],
		['/v1/apps/11/ai/completions', 10, 60_000],
	])('%s is paced at %i requests in %i ms', (path, limit, windowMs) => {
		expect(rateWindowFor(HOST, one, path)?.rate).toEqual({ limit, windowMs });
	});

	it.each([
		'/v1/data-sourcesx',
		'/v2/data-sources',
		'/x/v1/data-sources/7',
		'/v1/communicate',
		'/v1/communicatex/email',
		'/x/v1/communicate/email',
		'/v1/organizations/5/logs/1',
		'/v1/organizations/5/logsx',
		'/v1/organizations//logs',
		'/v1/organizations/5?x/logs',
		'/x/v1/organizations/5/logs',
		'/v1/apps/11/ai',
		'/v1/apps//ai/completions',
		'/v1/apps/11?x/ai/completions',
		'/x/v1/apps/11/ai/completions',
		'/v1/apps/11/publish',
	])('%s is not paced', (path) => {
		expect(rateWindowFor(HOST, one, path)).toBeUndefined();
	});

	it('paces AI at 100 a minute on a paid plan, and at the Free pace for anything else', () => {
		const AI = '/v1/apps/11/ai/completions';
		expect(aiPlanOf({ aiPlan: 'paid' })).toBe('paid');
		expect(aiPlanOf({})).toBe('free');
		expect(aiPlanOf({ aiPlan: 'Paid' })).toBe('free');
		expect(rateWindowFor(HOST, { ...one, aiPlan: 'paid' }, AI)?.rate).toEqual({
			limit: 100,
			windowMs: 60_000,
		});
		expect(rateWindowFor(HOST, { ...one, aiPlan: 'enterprise' }, AI)?.rate).toEqual({
			limit: 10,
			windowMs: 60_000,
		});
		// A plan changed on the credential does not count its requests in the other plan's window.
		expect(rateWindowFor(HOST, { ...one, aiPlan: 'paid' }, AI)).not.toBe(
			rateWindowFor(HOST, one, AI),
		);
	});

	it('gives one window per host, token and area; AI per organization, whichever token calls', () => {
		const window = rateWindowFor(HOST, one, DATA);
		expect(rateWindowFor(HOST, one, '/v1/data-sources')).toBe(window);
		expect(rateWindowFor(HOST, { accessToken: '  eu--one\n' }, DATA)).toBe(window);
		expect(rateWindowFor(HOST, { accessToken: 'eu--two' }, DATA)).not.toBe(window);
		expect(rateWindowFor('https://us.api.fliplet.com', one, DATA)).not.toBe(window);
		expect(rateWindowFor(HOST, one, '/v1/organizations/5/logs')).not.toBe(window);
		expect(rateWindowFor(HOST, one, '/v1/communicate/email')).not.toBe(window);

		// Apps of one organization share its AI window, whichever token calls them.
		const ai = rateWindowFor(HOST, one, '/v1/apps/11/ai/completions', 'organization 1');
		const two = { accessToken: 'eu--two' };
		expect(rateWindowFor(HOST, two, '/v1/apps/12/ai/image', 'organization 1')).toBe(ai);
		expect(rateWindowFor(HOST, one, '/v1/apps/13/ai/completions', 'organization 2')).not.toBe(ai);
		// An app whose organization is unknown counts in the token's own window, for all its apps.
		const token = rateWindowFor(HOST, one, '/v1/apps/11/ai/completions');
		expect(token).not.toBe(ai);
		expect(rateWindowFor(HOST, one, '/v1/apps/12/ai/embeddings')).toBe(token);
		expect(rateWindowFor(HOST, two, '/v1/apps/11/ai/completions')).not.toBe(token);
	});

	it('counts a credential without a token with an empty token, not with the text "undefined"', () => {
		const none = rateWindowFor(HOST, {}, DATA);
		expect(rateWindowFor(HOST, { accessToken: '' }, DATA)).toBe(none);
		expect(rateWindowFor(HOST, { accessToken: 'undefined' }, DATA)).not.toBe(none);
	});
});

describe('a rate window, millisecond by millisecond', () => {
	beforeEach(() => jest.useFakeTimers({ now: 0 }));
	afterEach(() => jest.useRealTimers());

	/** Sends through `window`, logging when each request started. */
	function sender(window: RequestWindow) {
		const started: number[] = [];
		const send = (signal?: AbortSignal) =>
			sendPaced(
				window,
				async () => {
					started.push(Date.now());
				},
				undefined,
				signal,
			);
		return { started, send };
	}

	it('sends requests beyond the limit in batches, one window and a millisecond after the last batch ended', async () => {
		const { started, send } = sender(new RequestWindow({ limit: 3, windowMs: 1000 }));
		const all = Array.from({ length: 7 }, () => send());
		await jest.advanceTimersByTimeAsync(5000);
		await Promise.all(all);
		expect(started).toEqual([0, 0, 0, 1001, 1001, 1001, 2002]);
	});

	it('frees a place exactly one window after the oldest request ended, not a millisecond later', async () => {
		const { started, send } = sender(new RequestWindow({ limit: 2, windowMs: 1000 }));
		await send();
		await send();
		await jest.advanceTimersByTimeAsync(999);
		const early = send();
		await jest.advanceTimersByTimeAsync(1);
		expect(started).toEqual([0, 0]);
		await jest.advanceTimersByTimeAsync(10);
		await early;
		expect(started).toEqual([0, 0, 1001]);

		const { started: later, send: sendLater } = sender(
			new RequestWindow({ limit: 1, windowMs: 1000 }),
		);
		await sendLater();
		await jest.advanceTimersByTimeAsync(1000);
		const onTime = sendLater();
		await jest.advanceTimersByTimeAsync(10);
		await onTime;
		expect(later).toEqual([1010, 2010]);
	});

	it('keeps the places of requests still on their way, and counts their window from their end', async () => {
		const window = new RequestWindow({ limit: 2, windowMs: 1000 });
		const answers = [deferred(), deferred()];
		const slow = answers.map((answer) => sendPaced(window, async () => await answer.promise));
		const { started, send } = sender(window);
		const third = send();
		// Nothing ended: no time frees a place, only an end does.
		await jest.advanceTimersByTimeAsync(5000);
		expect(started).toEqual([]);
		answers[0].resolve();
		await jest.advanceTimersByTimeAsync(1000);
		expect(started).toEqual([]);
		await jest.advanceTimersByTimeAsync(1);
		expect(started).toEqual([6001]);
		answers[1].resolve();
		await Promise.all([...slow, third]);
		expect(window.served).toBe(3);
	});

	it('an abort ends the wait for a place: nothing is sent, and those behind it keep their turn', async () => {
		const window = new RequestWindow({ limit: 1, windowMs: 1000 });
		const first = deferred();
		const sending = sendPaced(window, async () => await first.promise);
		const { started, send } = sender(window);
		const stop = new AbortController();
		const abandoned = send(stop.signal);
		const next = send();
		await jest.advanceTimersByTimeAsync(100);
		stop.abort(new Error('stopped'));
		await expect(abandoned).resolves.toBeUndefined();
		first.resolve();
		await sending;
		await jest.advanceTimersByTimeAsync(1001);
		await next;
		expect(started).toEqual([1101]);
		// The abandoned request holds no place: the window is idle one window after the last end.
		expect(window.isIdle(2100)).toBe(false);
		expect(window.isIdle(2101)).toBe(true);
	});

	it('sends nothing for a signal aborted before the wait, even with room', async () => {
		const window = new RequestWindow({ limit: 5, windowMs: 1000 });
		const send = jest.fn(async () => 'sent');
		const stopped = new AbortController();
		stopped.abort();
		await expect(sendPaced(window, send, undefined, stopped.signal)).resolves.toBeUndefined();
		expect(send).not.toHaveBeenCalled();
		await expect(sendPaced(window, send)).resolves.toBe('sent');
		expect(window.served).toBe(1);
		await expect(sendPaced(undefined, send)).resolves.toBe('sent');
		expect(send).toHaveBeenCalledTimes(2);
	});

	it('keeps the latest of several holds', () => {
		const window = new RequestWindow({ limit: 5, windowMs: 1000 });
		expect(window.holdEnds).toBe(0);
		window.hold(500);
		window.hold(200);
		expect(window.holdEnds).toBe(500);
		window.hold(800);
		expect(window.holdEnds).toBe(800);
	});

	it('is idle only with nothing on its way, waiting or held, a full window after its last end', async () => {
		const fresh = new RequestWindow({ limit: 1, windowMs: 1000 });
		expect(fresh.isIdle(999)).toBe(false);
		expect(fresh.isIdle(1000)).toBe(true);

		const held = new RequestWindow({ limit: 1, windowMs: 1000 });
		held.hold(5000);
		expect(held.isIdle(4999)).toBe(false);
		expect(held.isIdle(5000)).toBe(true);

		const busy = new RequestWindow({ limit: 1, windowMs: 1000 });
		const answer = deferred();
		const onItsWay = sendPaced(busy, async () => await answer.promise);
		const waiting = sendPaced(busy, async () => undefined);
		await jest.advanceTimersByTimeAsync(0);
		expect(busy.isIdle(60_000)).toBe(false);
		answer.resolve();
		await onItsWay;
		// The first ended at 0; the second waits for its place until 1001.
		expect(busy.isIdle(60_000)).toBe(false);
		await jest.advanceTimersByTimeAsync(1001);
		await waiting;
		expect(busy.isIdle(2000)).toBe(false);
		expect(busy.isIdle(2001)).toBe(true);
	});
});

describe('forgetting idle windows', () => {
	// The sweep runs at most once a minute of the process; each test starts well past the last one.
	let base = Date.parse('2100-01-01T00:00:00Z');
	const window = (token: string, path = DATA) => rateWindowFor(HOST, { accessToken: token }, path)!;

	beforeEach(() => {
		base += 1_000_000_000;
		jest.useFakeTimers({ now: base });
		forgetRateWindows();
		window('sweeper', '/v1/communicate/email');
	});
	afterEach(() => {
		jest.useRealTimers();
		forgetRateWindows();
	});

	it('forgets an idle window once a minute has passed since the last sweep, not before', async () => {
		const used = window('a');
		await sendPaced(used, async () => undefined);
		jest.setSystemTime(base + 59_999);
		expect(window('a')).toBe(used);
		jest.setSystemTime(base + 60_000);
		expect(window('a')).not.toBe(used);
	});

	it('keeps a window whose requests still count, is held, on its way or waiting', async () => {
		const sweepAt = base + 60_000;
		const never = window('never used');
		const endedLongAgo = window('ended a full window before');
		const endedRecently = window('ended just inside the window');
		jest.setSystemTime(sweepAt - 10_000);
		await sendPaced(endedLongAgo, async () => undefined);
		jest.setSystemTime(sweepAt - 9_999);
		await sendPaced(endedRecently, async () => undefined);
		jest.setSystemTime(base);

		const holdEnded = window('held until the sweep');
		holdEnded.hold(sweepAt);
		const stillHeld = window('held past the sweep');
		stillHeld.hold(sweepAt + 1);

		const onItsWay = window('on its way');
		const answer = deferred();
		const sending = sendPaced(onItsWay, async () => await answer.promise);
		// Waiting out a hold that ends long before the sweep: only its wait keeps the window.
		const waiting = window('waiting');
		waiting.hold(base + 100);
		const waitingSend = sendPaced(waiting, async () => undefined);
		await jest.advanceTimersByTimeAsync(0);

		jest.setSystemTime(sweepAt);
		const kept = [endedRecently, stillHeld, onItsWay, waiting];
		const forgotten = [never, endedLongAgo, holdEnded];
		const now = (w: RequestWindow) =>
			window(
				[
					'never used',
					'ended a full window before',
					'ended just inside the window',
					'held until the sweep',
					'held past the sweep',
					'on its way',
					'waiting',
				][[never, endedLongAgo, endedRecently, holdEnded, stillHeld, onItsWay, waiting].indexOf(w)],
			);
		// The first look sweeps; the windows looked at after it are the ones it left.
		window('sweeper', '/v1/communicate/email');
		for (const w of kept) expect(now(w)).toBe(w);
		for (const w of forgotten) expect(now(w)).not.toBe(w);

		answer.resolve();
		await sending;
		await jest.advanceTimersByTimeAsync(200);
		await waitingSend;
	});
});

/** An offset/limit endpoint over `total` numbered records that logs the pages asked for. */
function pagedList(total: number, servesAtMost = Infinity) {
	const asked: PageRequest[] = [];
	const records = Array.from({ length: total }, (_, n) => ({ n }));
	const fetchPage = async (page: PageRequest) => {
		asked.push(page);
		return records.slice(page.offset, page.offset + Math.min(page.limit, servesAtMost));
	};
	return { asked, fetchPage, records };
}

async function pagesOf<T>(pages: AsyncIterable<{ offset: number; items: T[] }>) {
	const read: Array<{ offset: number; items: T[] }> = [];
	for await (const page of pages) read.push(page);
	return read;
}

/** Takes the first page and stops, as a caller that breaks out of its loop does. */
async function firstPageOnly(pages: AsyncGenerator<unknown>) {
	await pages.next();
	await pages.return(undefined);
}

async function pageCount(pages: AsyncIterable<unknown>) {
	let count = 0;
	for await (const page of pages) if (page) count++;
	return count;
}

const numbers = (items: Array<{ n: number }>) => items.map((item) => item.n);

describe('offset paging edges', () => {
	it('reads every page when no limit is given, yielding each with its offset', async () => {
		const { fetchPage } = pagedList(5);
		const pages = await pagesOf(offsetPages(fetchPage, 2));
		expect(pages.map(({ offset, items }) => [offset, numbers(items)])).toEqual([
			[0, [0, 1]],
			[2, [2, 3]],
			[4, [4]],
		]);
	});

	it('asks for whole pages of at least one record', async () => {
		const zero = pagedList(10);
		expect(numbers(await collectPages(zero.fetchPage, 3, 0))).toEqual([0, 1, 2]);
		expect(zero.asked).toEqual([
			{ offset: 0, limit: 1 },
			{ offset: 1, limit: 1 },
			{ offset: 2, limit: 1 },
		]);
		const fraction = pagedList(5);
		expect(numbers(await collectPages(fraction.fetchPage, Infinity, 2.9))).toEqual([0, 1, 2, 3, 4]);
		expect(fraction.asked.map((page) => `${page.offset}+${page.limit}`)).toEqual([
			'0+2',
			'2+2',
			'4+2',
		]);
	});

	it('reads on past pages as long as the cap the server serves, and stops at a shorter one', async () => {
		const capped = pagedList(9, 2);
		const pages = await pagesOf(offsetPages(capped.fetchPage, 5, Infinity, 2));
		expect(pages.map((page) => page.offset)).toEqual([0, 2, 4, 6, 8]);
		expect(pages.flatMap((page) => numbers(page.items))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
		expect(capped.asked.every((page) => page.limit === 5)).toBe(true);

		// A list that ends on a full capped page is told by the empty page after it.
		const even = pagedList(8, 2);
		expect(await pagesOf(offsetPages(even.fetchPage, 5, Infinity, 2))).toHaveLength(5);
		expect(even.asked.map((page) => page.offset)).toEqual([0, 2, 4, 6, 8]);

		// Without the cap, a page shorter than asked is the last.
		const uncapped = pagedList(9, 2);
		expect(await pagesOf(offsetPages(uncapped.fetchPage, 5))).toHaveLength(1);

		// With a limit, only what is missing is asked for.
		const limited = pagedList(9, 2);
		expect(numbers(await collectPagesCapped(limited.fetchPage, 3))).toEqual([0, 1, 2]);
		expect(limited.asked).toEqual([
			{ offset: 0, limit: 3 },
			{ offset: 2, limit: 1 },
		]);
	});

	async function collectPagesCapped(
		fetchPage: (page: PageRequest) => Promise<Array<{ n: number }>>,
		max: number,
	) {
		const pages = await pagesOf(offsetPages(fetchPage, 5, max, 2));
		return pages.flatMap((page) => page.items);
	}

	it('keeps only what is missing of a page that ignored the limit after pages that did not', async () => {
		const records = Array.from({ length: 12 }, (_, n) => ({ n }));
		const asked: number[] = [];
		const fetchPage = async ({ offset, limit }: PageRequest) => {
			asked.push(offset);
			return offset === 0 ? records.slice(0, limit) : records.slice(offset);
		};
		expect(numbers(await collectPages(fetchPage, 5, 2))).toEqual([0, 1, 2, 3, 4]);
		expect(asked).toEqual([0, 2]);
	});

	it('stops with PageNotAdvancingError when a page further on starts with the record of the one before', async () => {
		const { records } = pagedList(10);
		const fetchPage = async ({ limit }: PageRequest) => records.slice(0, limit);
		const read: number[] = [];
		const reading = (async () => {
			for await (const page of offsetPages(fetchPage, 3)) read.push(...numbers(page.items));
		})();
		await expect(reading).rejects.toThrow(PageNotAdvancingError);
		await expect(reading).rejects.toThrow(/page at offset 3 with records of an earlier page/);
		expect(read).toEqual([0, 1, 2]);
		const error = new PageNotAdvancingError(3);
		expect(error.name).toBe('PageNotAdvancingError');
		expect(error.description).toMatch(/ignored the offset/);
	});
});

describe('stable paging edges', () => {
	type Row = { n: number };
	const byN = {
		compare: (a: Row, b: Row) => a.n - b.n,
		outOfOrder: () => new Error('out of order'),
	};
	const byId = { idOf: (item: Row) => item.n };

	/**
	 * An endpoint over `list()` (read at each request) that logs each request, fails past `most`
	 * requests (a read that does not stop) and answers after a turn of the event loop.
	 */
	function endpoint(list: () => Row[], { withTotal = true, most = 30 } = {}) {
		const asked: string[] = [];
		const signals: AbortSignal[] = [];
		const fetchPage = async (
			{ offset, limit }: PageRequest,
			signal: AbortSignal,
		): Promise<OrderedPage<Row>> => {
			asked.push(`${offset}+${limit}`);
			signals.push(signal);
			if (asked.length > most) throw new Error(`more than ${most} requests`);
			const rows = list();
			const page = { items: rows.slice(offset, offset + limit), total: rows.length };
			await new Promise((resolve) => setImmediate(resolve));
			return withTotal ? page : { items: page.items };
		};
		return { asked, signals, fetchPage };
	}

	async function readAll<O extends typeof byN | typeof byId>(
		fetchPage: (page: PageRequest, signal: AbortSignal) => Promise<OrderedPage<Row>>,
		order: O,
		options?: StableReadOptions<Row>,
		pageSize = 3,
	) {
		const pages: Array<{ offset: number; items: number[]; last?: [number, number] }> = [];
		const pagesRead = options
			? stablePages(fetchPage, order, pageSize, options)
			: stablePages(fetchPage, order, pageSize);
		for await (const page of pagesRead) {
			pages.push({
				offset: page.offset,
				items: numbers(page.items),
				...(page.last ? { last: [page.last.item.n, page.last.at] as [number, number] } : {}),
			});
		}
		return pages;
	}

	const rows = (count: number, from = 0) =>
		Array.from({ length: count }, (_, i) => ({ n: from + i }));

	it('without options, reads page by page with nothing asked ahead, to a page with nothing new', async () => {
		const { asked, fetchPage } = endpoint(() => rows(7), { withTotal: false });
		const pages = await readAll(fetchPage, byN);
		expect(pages).toEqual([
			{ offset: 0, items: [0, 1, 2], last: [2, 2] },
			{ offset: 3, items: [3, 4, 5], last: [5, 5] },
			{ offset: 6, items: [6], last: [6, 6] },
			{ offset: 6, items: [], last: [6, 6] },
		]);
		expect(asked).toEqual(['0+3', '2+4', '5+4', '6+4']);
	});

	it('with a reported total, stops at the page that reaches it', async () => {
		const { asked, fetchPage } = endpoint(() => rows(6));
		expect(await readAll(fetchPage, byN)).toEqual([
			{ offset: 0, items: [0, 1, 2], last: [2, 2] },
			{ offset: 3, items: [3, 4, 5], last: [5, 5] },
		]);
		expect(asked).toEqual(['0+3', '2+4']);
	});

	it('asks for whole pages of at least one record', async () => {
		const zero = endpoint(() => rows(2), { withTotal: false });
		expect((await readAll(zero.fetchPage, byN, undefined, 0)).flatMap((p) => p.items)).toEqual([
			0, 1,
		]);
		expect(zero.asked).toEqual(['0+1', '0+2', '1+2']);
		const fraction = endpoint(() => rows(3));
		expect((await readAll(fraction.fetchPage, byN, {}, 2.9)).flatMap((p) => p.items)).toEqual([
			0, 1, 2,
		]);
		expect(fraction.asked).toEqual(['0+2', '1+3']);
	});

	it('resumes after a known anchor: its page starts there and the anchor is not yielded again', async () => {
		const { asked, fetchPage } = endpoint(() => rows(9));
		const pages = await readAll(fetchPage, byN, { start: { anchor: { n: 4 }, offset: 4 } });
		expect(pages).toEqual([
			{ offset: 5, items: [5, 6, 7], last: [7, 7] },
			{ offset: 8, items: [8], last: [8, 8] },
		]);
		expect(asked).toEqual(['4+4', '7+4']);
	});

	it('reads from the head when the anchor it resumes after was the first record and is gone', async () => {
		const { asked, fetchPage } = endpoint(() => rows(3, 1));
		const pages = await readAll(fetchPage, byN, { start: { anchor: { n: 0 }, offset: 0 } });
		expect(pages).toEqual([{ offset: 0, items: [1, 2, 3], last: [3, 2] }]);
		expect(asked).toEqual(['0+4']);
	});

	it('steps further back each time a page still starts past the anchor, and not after it reached it', async () => {
		// The anchor (40) was at 40; 30 records before it were deleted since: it is now at 10.
		const list = [...rows(10), ...rows(21, 40)];
		const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
		const pages = await readAll(fetchPage, byN, { start: { anchor: { n: 40 }, offset: 40 } });
		expect(asked).toEqual(['40+4', '24+20', '8+36', '30+4']);
		expect(pages).toEqual([
			{ offset: 11, items: rows(20, 41).map((row) => row.n), last: [60, 30] },
			{ offset: 30, items: [], last: [60, 30] },
		]);
	});

	it('moves past a full page of records it already read (others were inserted before the anchor)', async () => {
		let list = rows(6);
		const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
		const pages: number[][] = [];
		for await (const page of stablePages(fetchPage, byN, 3)) {
			pages.push(numbers(page.items));
			// Ten records are inserted before everything read so far, once.
			if (pages.length === 1) list = [...rows(10, -10), ...list];
		}
		expect(pages).toEqual([[0, 1, 2], [], [], [], [3, 4], [5], []]);
		// 2 was at 2; now at 12. Each page of old records moves the read on to its last one.
		expect(asked).toEqual(['0+3', '2+4', '5+4', '8+4', '11+4', '14+4', '15+4']);
	});

	it('stops at a page out of the order, equal neighbours included', async () => {
		for (const page of [
			[0, 2, 1],
			[0, 1, 1],
		]) {
			const fetchPage = async () => ({ items: page.map((n) => ({ n })) });
			await expect(readAll(fetchPage, byN)).rejects.toThrow('out of order');
		}
	});

	describe('a server that ignores the offset', () => {
		/** Answers `pages[i]` (record numbers) to the i-th request, then the last one again. */
		function scripted(pages: number[][]) {
			const asked: string[] = [];
			const fetchPage = async ({ offset, limit }: PageRequest) => {
				asked.push(`${offset}+${limit}`);
				if (asked.length > 10) throw new Error('more than 10 requests');
				const items = pages[Math.min(asked.length, pages.length) - 1].map((n) => ({ n }));
				return { items, total: 20 };
			};
			return { asked, fetchPage };
		}

		it.each([
			[
				'the first page',
				[
					[0, 1, 2],
					[0, 1, 2, 3],
				],
				2,
			],
			[
				'the first page, after one that advanced',
				[
					[0, 1, 2],
					[2, 3, 4, 5],
					[0, 1, 2, 3],
				],
				5,
			],
			[
				'the page before',
				[
					[0, 1, 2],
					[2, 3, 4, 5],
					[2, 3, 4, 5],
				],
				5,
			],
		])('is told when a page starts with the record of %s', async (_label, pages, offset) => {
			for (const order of [byN, byId]) {
				const { asked, fetchPage } = scripted(pages);
				const reading = readAll(fetchPage, order);
				await expect(reading).rejects.toThrow(PageNotAdvancingError);
				await expect(reading).rejects.toThrow(`page at offset ${offset} with`);
				expect(asked).toHaveLength(pages.length);
			}
		});
	});

	it('with an order by identity, yields each record once and stops at a page with nothing new', async () => {
		// Records are listed newest first; a record is added at the head while the read goes on.
		let list = [5, 4, 3, 2, 1, 0].map((n) => ({ n }));
		const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byId, 3)) {
			seen.push(...numbers(page.items));
			if (seen.length === 3) list = [{ n: 6 }, ...list];
		}
		expect(seen).toEqual([5, 4, 3, 2, 1, 0]);
		expect(asked).toEqual(['0+3', '2+4', '5+4', '6+4']);
	});

	it('asks nothing ahead once the pages read hold what the caller wants', async () => {
		const { asked, fetchPage } = endpoint(() => rows(30));
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 4, wanted: 3 })) {
			expect(numbers(page.items)).toEqual([0, 1, 2]);
			break;
		}
		expect(asked).toEqual(['0+3']);

		const six = endpoint(() => rows(30));
		await firstPageOnly(stablePages(six.fetchPage, byN, 3, { ahead: 5, wanted: 6 }));
		// 3 read and one page of 3 on its way make the 6 wanted.
		expect(six.asked).toEqual(['0+3', '2+4']);
	});

	it('asks ahead before the first answer only for a list expected to fill more than one page, and only when asked to', async () => {
		const read = async (options: StableReadOptions<Row>) => {
			const log: string[] = [];
			const { fetchPage } = endpoint(() => rows(7));
			const logged = async (page: PageRequest, signal: AbortSignal) => {
				log.push(`ask ${page.offset}+${page.limit}`);
				const answer = await fetchPage(page, signal);
				log.push(`answer ${page.offset}+${page.limit}`);
				return answer;
			};
			expect(await pageCount(stablePages(logged, byN, 3, options))).toBe(3);
			return log.filter((line) => line !== 'answer 2+4' && line !== 'answer 5+4');
		};
		expect(await read({ ahead: 4, expected: 4 })).toEqual([
			'ask 0+3',
			'ask 2+4',
			'answer 0+3',
			'ask 5+4',
		]);
		const afterTheFirst = ['ask 0+3', 'answer 0+3', 'ask 2+4', 'ask 5+4'];
		expect(await read({ ahead: 4, expected: 3 })).toEqual(afterTheFirst);
		expect(await read({ ahead: 4 })).toEqual(afterTheFirst);
		expect(await read({ ahead: 0, expected: 100 })).toEqual([
			'ask 0+3',
			'answer 0+3',
			'ask 2+4',
			'ask 5+4',
		]);
	});

	it('drops the pages asked ahead when a page ends short of where they start, and abandons them', async () => {
		// The server serves at most 2 records a page, whatever the limit, and reports the total.
		const list = rows(7);
		const asked: string[] = [];
		const signals: AbortSignal[] = [];
		const fetchPage = async ({ offset, limit }: PageRequest, signal: AbortSignal) => {
			asked.push(`${offset}+${limit}`);
			signals.push(signal);
			if (asked.length > 30) throw new Error('more than 30 requests');
			await new Promise((resolve) => setImmediate(resolve));
			return { items: list.slice(offset, offset + Math.min(limit, 2)), total: list.length };
		};
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 2 }))
			seen.push(...numbers(page.items));
		expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
		// The page asked for ahead at 5 assumed 2+4 would end at 5; it ended at 3: 5+4 is dropped.
		expect(asked).toEqual(['0+3', '1+4', '2+4', '5+4', '3+4', '4+4', '5+4']);
		expect(signals.map((signal) => signal.aborted)).toEqual([
			false,
			false,
			false,
			true,
			false,
			false,
			false,
		]);
	});

	it('abandons the pages on their way when the caller stops, and when its signal aborts', async () => {
		const { asked, signals, fetchPage } = endpoint(() => rows(30));
		await firstPageOnly(stablePages(fetchPage, byN, 3, { ahead: 4 }));
		expect(asked).toEqual(['0+3', '2+4', '5+4']);
		expect(signals.map((signal) => signal.aborted)).toEqual([false, true, true]);

		const stop = new AbortController();
		const other = endpoint(() => rows(30));
		const reading = stablePages(other.fetchPage, byN, 3, { signal: stop.signal });
		const first = await reading.next();
		expect(first.done).toBe(false);
		expect(other.signals[0].aborted).toBe(false);
		stop.abort();
		expect(other.signals[0].aborted).toBe(true);
		await reading.return(undefined);
	});
});
