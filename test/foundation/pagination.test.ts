/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	collectPages,
	stablePages,
	type PageRequest,
} from '../../nodes/Fliplet/transport/paginate';
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();

/** An offset/limit endpoint over `total` numbered records that logs the pages asked for. */
function pagedList(total: number) {
	const asked: PageRequest[] = [];
	const records = Array.from({ length: total }, (_, index) => ({ n: index }));
	const fetchPage = async (page: PageRequest) => {
		asked.push(page);
		return records.slice(page.offset, page.offset + page.limit);
	};
	return { asked, fetchPage };
}

describe('collectPages', () => {
	it('stops at the limit, asking only for what is missing', async () => {
		const { asked, fetchPage } = pagedList(100);
		const result = await collectPages(fetchPage, 5, 2);
		expect(result.map((record) => record.n)).toEqual([0, 1, 2, 3, 4]);
		expect(asked).toEqual([
			{ offset: 0, limit: 2 },
			{ offset: 2, limit: 2 },
			{ offset: 4, limit: 1 },
		]);
	});

	it('stops at a short page', async () => {
		const { asked, fetchPage } = pagedList(7);
		const result = await collectPages(fetchPage, Infinity, 3);
		expect(result).toHaveLength(7);
		expect(asked.map((page) => page.offset)).toEqual([0, 3, 6]);
	});

	it('reads one empty page after an exact multiple of the page size', async () => {
		const { asked, fetchPage } = pagedList(6);
		const result = await collectPages(fetchPage, Infinity, 3);
		expect(result.map((record) => record.n)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(asked.map((page) => page.offset)).toEqual([0, 3, 6]);
	});

	it('returns nothing for an empty list, and asks nothing for a limit of 0', async () => {
		const empty = pagedList(0);
		expect(await collectPages(empty.fetchPage, Infinity, 50)).toEqual([]);
		expect(empty.asked).toHaveLength(1);
		const none = pagedList(10);
		expect(await collectPages(none.fetchPage, 0, 50)).toEqual([]);
		expect(none.asked).toHaveLength(0);
	});

	it('does not loop when the endpoint ignores limit and offset', async () => {
		const everything = Array.from({ length: 12 }, (_, n) => ({ n }));
		const fetchPage = jest.fn(async () => everything);
		expect(await collectPages(fetchPage, Infinity, 5)).toHaveLength(12);
		expect(await collectPages(fetchPage, 3, 5)).toHaveLength(3);
		expect(fetchPage).toHaveBeenCalledTimes(2);
	});
});

describe('stablePages with pages asked for ahead', () => {
	const byN = {
		compare: (a: { n: number }, b: { n: number }) => a.n - b.n,
		outOfOrder: () => new Error('out of order'),
	};
	/** A list of `total` records read to the end: the log of requests and pages handed over. */
	function ordered(total: number, failAt?: number) {
		const log: string[] = [];
		const records = Array.from({ length: total }, (_, n) => ({ n }));
		const fetchPage = async ({ offset, limit }: PageRequest) => {
			log.push(`ask ${offset}+${limit}`);
			await new Promise((resolve) => setImmediate(resolve));
			if (offset === failAt) throw new Error(`page at ${offset} failed`);
			return { items: records.slice(offset, offset + limit), total };
		};
		return { log, fetchPage };
	}

	async function read(total: number, ahead: number) {
		const { log, fetchPage } = ordered(total);
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead })) {
			log.push(`got ${page.items.map((item) => item.n).join(',')}`);
			seen.push(...page.items.map((item) => item.n));
		}
		return { log, seen };
	}

	it('asks for the same pages, each one before the caller has the previous one', async () => {
		const plain = await read(8, 0);
		const ahead = await read(8, 1);
		expect(ahead.seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		expect(ahead.seen).toEqual(plain.seen);
		const asks = (log: string[]) => log.filter((line) => line.startsWith('ask'));
		expect(asks(ahead.log)).toEqual(asks(plain.log));
		expect(plain.log).toEqual([
			'ask 0+3',
			'got 0,1,2',
			'ask 2+4',
			'got 3,4,5',
			'ask 5+4',
			'got 6,7',
		]);
		expect(ahead.log).toEqual([
			'ask 0+3',
			'ask 2+4',
			'got 0,1,2',
			'ask 5+4',
			'got 3,4,5',
			'got 6,7',
		]);
	});

	it('keeps several pages on their way, never past the reported total', async () => {
		const { log, fetchPage } = ordered(10);
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 5 })) {
			log.push(`got ${page.items.map((item) => item.n).join(',')}`);
			seen.push(...page.items.map((item) => item.n));
		}
		expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		// The first page tells the total; then every page that can hold something is asked for.
		expect(log).toEqual([
			'ask 0+3',
			'ask 2+4',
			'ask 5+4',
			'ask 8+4',
			'got 0,1,2',
			'got 3,4,5',
			'got 6,7,8',
			'got 9',
		]);
	});

	it('with an expected length, asks for the pages it fills before the first answer', async () => {
		const { log, fetchPage } = ordered(9);
		const seen: number[] = [];
		const reading = { ahead: 5, expected: 9 };
		for await (const page of stablePages(fetchPage, byN, 3, reading)) {
			log.push(`got ${page.items.map((item) => item.n).join(',')}`);
			seen.push(...page.items.map((item) => item.n));
		}
		expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
		expect(log).toEqual(['ask 0+3', 'ask 2+4', 'ask 5+4', 'got 0,1,2', 'got 3,4,5', 'got 6,7,8']);
	});

	it('an expected length larger than the list costs at most the pages ahead', async () => {
		const { log, fetchPage } = ordered(2);
		const pages = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 10, expected: 1000 }))
			pages.push(page.items.map((item) => item.n));
		expect(pages).toEqual([[0, 1]]);
		// Before the first answer, at most three pages are asked for, whatever `ahead` allows.
		expect(log).toEqual(['ask 0+3', 'ask 2+4', 'ask 5+4']);
	});

	/** Pages of a long list whose answers take `answerMs`; counts the most requests on their way. */
	function slowList(answerMs: number) {
		let onTheWay = 0;
		const most = { onTheWay: 0 };
		const fetchPage = async ({ offset, limit }: PageRequest) => {
			onTheWay++;
			most.onTheWay = Math.max(most.onTheWay, onTheWay);
			await new Promise((resolve) => setTimeout(resolve, answerMs));
			onTheWay--;
			const items = Array.from({ length: limit }, (_, n) => ({ n: offset + n }));
			return { items: items.filter((item) => item.n < 300), total: 300 };
		};
		return { fetchPage, most };
	}

	it('keeps more pages on its way while the caller waits for them, up to `ahead`', async () => {
		const { fetchPage, most } = slowList(5);
		let count = 0;
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 6 }))
			count += page.items.length;
		expect(count).toBe(300);
		// It starts with 3 pages ahead; each wait adds one, up to 6.
		expect(most.onTheWay).toBe(6);
	});

	it('keeps no more pages on its way than it starts with when the caller is the slower', async () => {
		const { fetchPage, most } = slowList(0);
		let count = 0;
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 6 })) {
			count += page.items.length;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect(count).toBe(300);
		expect(most.onTheWay).toBeLessThanOrEqual(3);
	});

	it('without a reported total, asks for one page ahead only', async () => {
		const records = Array.from({ length: 10 }, (_, n) => ({ n }));
		const asked: string[] = [];
		const fetchPage = async ({ offset, limit }: PageRequest) => {
			asked.push(`${offset}+${limit}`);
			return { items: records.slice(offset, offset + limit) };
		};
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 5 })) {
			seen.push(...page.items.map((item) => item.n));
			asked.push(`got ${page.items.length}`);
		}
		expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(asked.slice(0, 4)).toEqual(['0+3', '2+4', 'got 3', '5+4']);
	});

	it('asks ahead no further than the caller wants', async () => {
		const { log, fetchPage } = ordered(30);
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 5, wanted: 7 })) {
			if (page.items.length && page.items[page.items.length - 1].n >= 6) break;
		}
		// 3 read, and two pages of 3 more on their way cover the 7 wanted.
		expect(log.filter((line) => line.startsWith('ask'))).toEqual(['ask 0+3', 'ask 2+4', 'ask 5+4']);
	});

	it('drops the pages on their way when one no longer starts at the anchor, and reads on from there', async () => {
		let records = Array.from({ length: 12 }, (_, n) => ({ n }));
		const asked: string[] = [];
		const fetchPage = async ({ offset, limit }: PageRequest) => {
			asked.push(`${offset}+${limit}`);
			const page = { items: records.slice(offset, offset + limit), total: records.length };
			// Another writer deletes record 1 once the first page is read: the pages already asked
			// for ahead still come back as they were, the next ones do not.
			if (offset === 0) records = records.filter((record) => record.n !== 1);
			await new Promise((resolve) => setImmediate(resolve));
			return page;
		};
		const seen: number[] = [];
		for await (const page of stablePages(fetchPage, byN, 3, { ahead: 3 }))
			seen.push(...page.items.map((item) => item.n));
		// Every record present throughout is read exactly once; 1 was read before its delete.
		expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
		// The pages asked for ahead (2+4, 5+4: a read starts with half its pages ahead) were read
		// after the delete and started one past the anchor: they are dropped, the next is read again
		// from further back (0+6), and the pages after it are asked for anew from where it ended.
		expect(asked).toEqual(['0+3', '2+4', '5+4', '0+6', '5+4', '8+4']);
	});

	it('throws a failed page ahead where it belongs, after the pages before it', async () => {
		const { fetchPage } = ordered(8, 2);
		const seen: number[] = [];
		const reading = (async () => {
			for await (const page of stablePages(fetchPage, byN, 3, { ahead: 1 }))
				seen.push(...page.items.map((item) => item.n));
		})();
		await expect(reading).rejects.toThrow('page at 2 failed');
		expect(seen).toEqual([0, 1, 2]);
	});

	it('leaves no unhandled failure when the caller stops before the page ahead', async () => {
		const unhandled: unknown[] = [];
		const record = (reason: unknown) => unhandled.push(reason);
		process.on('unhandledRejection', record);
		try {
			const { fetchPage } = ordered(8, 2);
			for await (const page of stablePages(fetchPage, byN, 3, { ahead: 1 })) {
				expect(page.items).toHaveLength(3);
				break;
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(unhandled).toEqual([]);
		} finally {
			process.off('unhandledRejection', record);
		}
	});
});

describe('per-item errors (App Analytics → Get Sessions over 3 items)', () => {
	const parameters = {
		resource: 'appAnalytics',
		operation: 'getSessions',
		app: { __rl: true, mode: 'id', value: '={{ $json.appId }}' },
		returnAll: false,
		limit: 1,
	};

	it.each([
		['not a number', 'abc', 'App: "abc" is not an id', 2],
		['an app the token cannot reach', 31, 'The app 31 is not available to this token', 3],
	])(
		'with Continue On Fail, item 1 (%s) becomes an error paired to it',
		async (_label, badId, message, sent) => {
			const result = await runNode({
				parameters,
				input: [{ json: { appId: 11 } }, { json: { appId: badId } }, { json: { appId: 11 } }],
				credentials: sandboxCredential(sandbox(), TOKENS.org),
				continueOnFail: true,
			});
			expect(result.status).toBe('success');
			expect(result.items).toHaveLength(3);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(result.json[0]).toEqual(
				expect.objectContaining({ id: 1, user: { email: 'user1@example.com' } }),
			);
			expect(String(result.json[1].error)).toContain(message);
			expect(result.json[1].description).toEqual(expect.any(String));
			expect(result.json[2]).toEqual(result.json[0]);
			expect(apiRequests(sandbox())).toHaveLength(sent);
		},
	);

	it('without Continue On Fail the error stops the node with itemIndex 1', async () => {
		const result = await runNode({
			parameters,
			input: [{ json: { appId: 11 } }, { json: { appId: 'abc' } }, { json: { appId: 11 } }],
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('App: "abc" is not an id');
		expect(result.error?.description).toMatch(/whole number/);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			'/v1/apps/11/analytics/sessions',
		]);
	});
});
