/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The transport helpers at the edges a mutation run found untested: the names of its errors, a
// window's answer to an abandoned wait and the length of a held wait, which paced areas are per
// token, what the attempt loop waits after each 429 and when it gives up, that an answered attempt
// leaves no deadline behind, and which pages the offset and stable reads ask for and hand over.
// Waits run 50 times shorter when this file runs on its own; the tests hold as well at full length
// (the mutation run loads every file into one module, where the first file's n8n-workflow stays).
jest.mock('n8n-workflow', () =>
	require('../harness/fastWaits').withFastWaits(jest.requireActual('n8n-workflow')),
);

import { RunEndedError } from '../../nodes/Fliplet/transport/abort';
import { DeadlineError } from '../../nodes/Fliplet/transport/deadline';
import {
	forgetRateWindows,
	rateWindowFor,
	RequestWindow,
	sendPaced,
} from '../../nodes/Fliplet/transport/pacing';
import {
	offsetPages,
	stablePages,
	type OrderedPage,
	type PageRequest,
	type ReadOrder,
} from '../../nodes/Fliplet/transport/paginate';
import { MAX_FAULT_RETRIES, MAX_RATE_LIMIT_WAITS } from '../../nodes/Fliplet/transport/retryPolicy';
import { answer, failureOf, scripted } from '../harness/scriptedExchange';

const HOST = 'https://api.fliplet.com';

describe('the transport errors', () => {
	it('name themselves', () => {
		const ended = new RunEndedError();
		expect(ended.name).toBe('RunEndedError');
		expect(ended.message).toBe('the run that sent the request has ended');
		const late = new DeadlineError(2500);
		expect(late.name).toBe('DeadlineError');
		expect(late).toMatchObject({ code: 'ETIMEDOUT', ms: 2500 });
		expect(late.message).toBe('no complete answer within 2.5 s');
	});
});

describe('rate windows', () => {
	afterEach(() => forgetRateWindows());

	it.each(['/v1/communicate/email', '/v1/organizations/5/logs', '/v1/data-sources/7/data'])(
		'%s is paced per token: another token has its own window',
		(path) => {
			const one = rateWindowFor(HOST, { accessToken: 'eu--one' }, path);
			expect(one).toBeDefined();
			expect(rateWindowFor(HOST, { accessToken: ' eu--one ' }, path)).toBe(one);
			expect(rateWindowFor(HOST, { accessToken: 'eu--two' }, path)).not.toBe(one);
		},
	);

	it('paces the audit logs of an organization whose id is longer than one character', () => {
		expect(rateWindowFor(HOST, { accessToken: 'a' }, '/v1/organizations/12345/logs')?.rate).toEqual(
			{ limit: 30, windowMs: 10_000 },
		);
	});

	it('a wait for a place that was abandoned answers false', async () => {
		const window = new RequestWindow({ limit: 1, windowMs: 10_000 });
		expect(await window.reserve(AbortSignal.abort())).toBe(false);
		// Full, and abandoned while it waits.
		expect(await window.reserve()).toBe(true);
		const stop = new AbortController();
		const waiting = window.reserve(stop.signal);
		stop.abort();
		expect(await waiting).toBe(false);
	});

	it('tells a wait only when the window made the request wait, not when the clock moved', async () => {
		const window = new RequestWindow({ limit: 1, windowMs: 40 });
		// A busy machine: the clock moves 5 ms at every reading, though nothing holds the request.
		const realNow = Date.now;
		let clock = realNow();
		Date.now = () => (clock += 5);
		const waits: number[] = [];
		try {
			expect(await window.reserve(undefined, false, (ms) => waits.push(ms))).toBe(true);
			// And as the transport sends: a request into an empty window waited for nothing.
			const other = new RequestWindow({ limit: 1, windowMs: 40 });
			const sent = await sendPaced(
				other,
				async () => 'sent',
				undefined,
				undefined,
				false,
				(ms) => waits.push(ms),
			);
			expect(sent).toBe('sent');
			expect(waits).toEqual([]);
		} finally {
			Date.now = realNow;
		}
		window.release(true);
		// The window is full: the next request waits for the place, and says how long.
		expect(await window.reserve(undefined, false, (ms) => waits.push(ms))).toBe(true);
		expect(waits).toHaveLength(1);
		expect(waits[0]).toBeGreaterThan(0);
	});

	it('a held window waits out what is left of the hold, not more', async () => {
		// On a fake clock: a busy machine cannot pass the hold before the wait starts.
		jest.useFakeTimers({ now: 1_000_000 });
		try {
			const window = new RequestWindow({ limit: 5, windowMs: 10_000 });
			window.hold(1_000_100);
			const timers: number[] = [];
			const fakeSetTimeout = global.setTimeout;
			jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
				timers.push(Number(ms ?? 0));
				return fakeSetTimeout(callback, ms);
			}) as typeof setTimeout);
			let reserved = false;
			const reserving = window.reserve().then((ok) => (reserved = ok));
			await jest.advanceTimersByTimeAsync(99);
			expect(reserved).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			await reserving;
			expect(reserved).toBe(true);
			expect(timers.length).toBeGreaterThan(0);
			for (const ms of timers) expect(ms).toBeLessThanOrEqual(100);
		} finally {
			jest.restoreAllMocks();
			jest.useRealTimers();
		}
	});
});

// ---------------------------------------------------------------------------------------------
// The attempt loop, with a scripted send.
// ---------------------------------------------------------------------------------------------

describe('the attempt loop', () => {
	afterEach(() => jest.restoreAllMocks());

	it('names no first cause when every attempt met the same', async () => {
		const down = () => answer(503, { message: 'Down' });
		const script = scripted(Array.from({ length: MAX_FAULT_RETRIES + 1 }, down));
		expect(await failureOf(script)).toEqual({
			status: 503,
			body: { message: 'Down' },
			mayHaveBeenProcessed: undefined,
			attempts: MAX_FAULT_RETRIES + 1,
			firstCause: undefined,
		});
	});

	it(`gives up on a 429 that never ends after ${MAX_RATE_LIMIT_WAITS} waits, without a window too`, async () => {
		const refused = () => answer(429, { message: 'Slow down' }, { 'Retry-After': '0' });
		const script = scripted(Array.from({ length: MAX_RATE_LIMIT_WAITS + 3 }, refused));
		expect(await failureOf(script)).toMatchObject({
			status: 429,
			attempts: MAX_RATE_LIMIT_WAITS + 1,
		});
		expect(script.sent).toHaveLength(MAX_RATE_LIMIT_WAITS + 1);
	});

	it('waits longer after each 429 that names no time', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		// The wait after a 429 holds the window until its end: read it from there.
		const window = new RequestWindow({ limit: 100, windowMs: 1_000 });
		const steps = [answer(429), answer(429), answer(429), answer(200, { ok: true })];
		const refusedAt: number[] = [];
		const heldFor: number[] = [];
		const script = scripted([], {
			window,
			send: async () => {
				if (refusedAt.length) heldFor.push(window.holdEnds - refusedAt[refusedAt.length - 1]);
				const step = steps.shift()!;
				if (step.statusCode === 429) refusedAt.push(Date.now());
				return step;
			},
		});
		expect((await script.run()).body).toEqual({ ok: true });
		expect(heldFor).toHaveLength(3);
		[150, 300, 600].forEach((backoff, index) => {
			expect(heldFor[index]).toBeGreaterThanOrEqual(backoff);
			expect(heldFor[index]).toBeLessThan(backoff + 50);
		});
	});

	it('a 4xx on the first attempt stands, even for a DELETE', async () => {
		expect(await failureOf(scripted([answer(404, { message: 'Gone' })]))).toMatchObject({
			status: 404,
			attempts: 1,
		});
		const del = scripted([answer(404)], {
			method: 'DELETE',
			options: { method: 'DELETE', baseURL: 'https://api.test', url: '/v1/things/1' },
		});
		expect(await failureOf(del)).toMatchObject({ status: 404, attempts: 1 });
		expect(await failureOf(scripted([answer(400)]))).toMatchObject({ status: 400 });
	});

	it('a DELETE retried after a 5xx fails with what its last attempt met, unless that is a 404', async () => {
		const del = { method: 'DELETE' as const, baseURL: 'https://api.test', url: '/v1/things/1' };
		const refused = scripted([answer(503), answer(403, { message: 'No access' })], {
			method: 'DELETE',
			options: { ...del },
		});
		expect(await failureOf(refused)).toMatchObject({ status: 403, attempts: 2 });
		const down = scripted(
			Array.from({ length: MAX_FAULT_RETRIES + 1 }, () => answer(503)),
			{ method: 'DELETE', options: { ...del } },
		);
		expect(await failureOf(down)).toMatchObject({ status: 503 });
		const gone = scripted([answer(503), answer(404)], { method: 'DELETE', options: { ...del } });
		expect((await gone.run()).statusCode).toBe(200);
	});

	it('an answered attempt leaves no deadline behind to abort its request later', async () => {
		let requestSignal: AbortSignal | undefined;
		const script = scripted([], {
			deadlineMs: 20,
			send: async (options) => {
				requestSignal = options.abortSignal as AbortSignal;
				return answer(200);
			},
		});
		expect((await script.run()).statusCode).toBe(200);
		// The deadline (20 ms, or less when waits are shortened) would have passed by now.
		await new Promise((resolve) => setTimeout(resolve, 80));
		expect(requestSignal?.aborted).toBe(false);
	});
});

// ---------------------------------------------------------------------------------------------
// Offset and stable paging.
// ---------------------------------------------------------------------------------------------

describe('offset paging', () => {
	it('hands each page over as it was fetched, without copying it', async () => {
		const pages = [[{ n: 0 }, { n: 1 }, { n: 2 }], [{ n: 3 }]];
		const fetched: unknown[] = [];
		const fetchPage = async ({ offset }: PageRequest) => {
			const page = pages[offset / 3];
			fetched.push(page);
			return page;
		};
		const handed: unknown[] = [];
		for await (const { items } of offsetPages(fetchPage, 3)) handed.push(items);
		expect(handed).toHaveLength(2);
		expect(handed[0]).toBe(fetched[0]);
		expect(handed[1]).toBe(fetched[1]);
	});
});

describe('stable paging', () => {
	type Row = { n: number };
	const byN: ReadOrder<Row> = {
		compare: (a, b) => a.n - b.n,
		outOfOrder: () => new Error('out of order'),
	};
	const byId: ReadOrder<Row> = { idOf: (item) => item.n };
	const rows = (count: number, from = 0) =>
		Array.from({ length: count }, (_, i) => ({ n: from + i }));
	const numbers = (items: Row[]) => items.map((item) => item.n);

	/**
	 * An endpoint over `list()` (read at each request) that logs each request, fails past 20
	 * requests (a read that does not stop) and answers after a turn of the event loop.
	 */
	function endpoint(list: () => Row[], { withTotal = true } = {}) {
		const asked: string[] = [];
		const fetchPage = async ({ offset, limit }: PageRequest): Promise<OrderedPage<Row>> => {
			asked.push(`${offset}+${limit}`);
			if (asked.length > 20) throw new Error('more than 20 requests');
			const all = list();
			await new Promise((resolve) => setImmediate(resolve));
			const items = all.slice(offset, offset + limit);
			return withTotal ? { items, total: all.length } : { items };
		};
		return { asked, fetchPage };
	}

	async function itemsRead(
		pages: AsyncGenerator<{ items: Row[] }>,
		between?: (pagesRead: number) => void,
	) {
		const read: number[][] = [];
		for await (const page of pages) {
			read.push(numbers(page.items));
			between?.(read.length);
		}
		return read;
	}

	it('reads every page up to the reported total', async () => {
		const { asked, fetchPage } = endpoint(() => rows(7));
		expect(await itemsRead(stablePages(fetchPage, byN, 3))).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
		expect(asked).toEqual(['0+3', '2+4', '5+4']);
	});

	it('keeps pages on their way ahead while the reported total says they hold something', async () => {
		const long = endpoint(() => rows(30));
		const reading = stablePages(long.fetchPage, byN, 3, { ahead: 4 });
		expect(numbers((await reading.next()).value!.items)).toEqual([0, 1, 2]);
		expect(long.asked).toEqual(['0+3', '2+4', '5+4']);
		await reading.return(undefined);

		// Of 6 records, the page at 5 holds nothing new: it is not asked for ahead.
		const short = endpoint(() => rows(6));
		const shortRead = stablePages(short.fetchPage, byN, 3, { ahead: 4 });
		await shortRead.next();
		expect(short.asked).toEqual(['0+3', '2+4']);
		await shortRead.return(undefined);
	});

	it('asks ahead, without a total, only the pages of the expected items not yet handed over', async () => {
		const { asked, fetchPage } = endpoint(() => rows(9), { withTotal: false });
		const reading = stablePages(fetchPage, byN, 3, { ahead: 8, expected: 9 });
		expect(numbers((await reading.next()).value!.items)).toEqual([0, 1, 2]);
		// 3 asked before the first answer fill the 9 expected; the 3 handed over leave 6 to come.
		expect(asked).toEqual(['0+3', '2+4', '5+4']);
		expect(numbers((await reading.next()).value!.items)).toEqual([3, 4, 5]);
		expect(asked).toEqual(['0+3', '2+4', '5+4']);
		await reading.return(undefined);
	});

	it('reads a page that came back empty (its records were deleted) again from further back', async () => {
		for (const order of [byN, byId]) {
			let list = rows(3);
			const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
			const read = await itemsRead(stablePages(fetchPage, order, 3), (pagesRead) => {
				if (pagesRead === 1) list = rows(2);
			});
			expect(read).toEqual([[0, 1, 2], []]);
			expect(asked).toEqual(['0+3', '2+4', '0+6']);
		}
	});

	it('in an order by identity, a page that holds the anchor after a new record is used as it is', async () => {
		// The records are in no order the read can compare; 9 is inserted just before the anchor (2).
		let list = [1, 2, 3, 4, 5].map((n) => ({ n }));
		const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
		const read = await itemsRead(stablePages(fetchPage, byId, 2), (pagesRead) => {
			if (pagesRead === 1) list = [1, 9, 2, 3, 4, 5].map((n) => ({ n }));
		});
		expect(read.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 9]);
		expect(asked[1]).toBe('1+3');
		expect(asked[2]).toBe('3+3');
	});

	it('in an order by identity, goes on from the last new record of a page that ends with an old one', async () => {
		// After the first page, 1 moves behind a new record (9): the next page is 2, 9, 1.
		let list = [1, 2, 3, 4, 5].map((n) => ({ n }));
		const { asked, fetchPage } = endpoint(() => list, { withTotal: false });
		const read = await itemsRead(stablePages(fetchPage, byId, 2), (pagesRead) => {
			if (pagesRead === 1) list = [7, 2, 9, 1, 3, 4].map((n) => ({ n }));
		});
		expect(read[0]).toEqual([1, 2]);
		expect(read[1]).toEqual([9]);
		// The anchor is 9, at 2: the next page starts there, not at the old record after it.
		expect(asked.slice(0, 3)).toEqual(['0+2', '1+3', '2+3']);
	});
});
