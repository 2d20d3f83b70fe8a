import { STEADY_POLICY } from '../../nodes/Fliplet/transport/allowance';
import { RequestWindow, sendPaced } from '../../nodes/Fliplet/transport/pacing';
import { MAX_SINGLE_WAIT_MS } from '../../nodes/Fliplet/transport/retryPolicy';
import type { RawResponse } from '../../nodes/Fliplet/transport/attempts';
import { answer, failureOf, scripted } from '../harness/scriptedExchange';

// What the attempt loop and a paced window do with a refusal (429), on a fake clock: the wait it
// names plus a random spread, wider after a second refusal in a row, the refused request first in
// line afterwards, and a cap (a time beyond any wait) failed at once.

/** A window paced as the transport's data-source windows are, over a short window. */
const pacedWindow = () =>
	new RequestWindow({ limit: 20, windowMs: 1_000 }, { policy: STEADY_POLICY, processes: 1 });

/** A 429 naming a time `ms` after it is answered. */
const refusedFor =
	(ms: number): (() => Promise<RawResponse>) =>
	async () =>
		answer(429, {
			message: 'Slow down',
			nextValidRequestDate: new Date(Date.now() + ms).toISOString(),
		});

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

describe('after a refusal', () => {
	/** When each attempt of a request refused twice (each naming 100 ms) was sent, from the first. */
	async function attemptTimes(random: number): Promise<number[]> {
		jest.spyOn(Math, 'random').mockReturnValue(random);
		const sentAt: number[] = [];
		const window = pacedWindow();
		const steps = [refusedFor(100), refusedFor(100), async () => answer(200)];
		const script = scripted([], {
			window,
			send: async () => {
				sentAt.push(Date.now());
				return await steps.shift()!();
			},
		});
		const done = script.run();
		await jest.advanceTimersByTimeAsync(5_000);
		expect((await done).statusCode).toBe(200);
		return sentAt.map((at) => at - sentAt[0]);
	}

	it('a request waits the time named (and the jitter), no spread when the random draw is 0', async () => {
		// The third also keeps the even pace of the allowance the first refusal left: an even share
		// of two, 10 a window, 100 ms apart (as long as the second refusal's hold).
		expect(await attemptTimes(0)).toEqual([0, 100, 200]);
	});

	it('and at most a share of the window more after its first refusal, a wider one after its second in a row', async () => {
		const { first, again } = STEADY_POLICY.spreadShare;
		expect(again).toBeGreaterThan(first);
		const [, second, third] = await attemptTimes(0.999);
		// Named 100 ms, jitter under 100 ms, then the spread (of a 1 s window here).
		expect(second).toBeGreaterThanOrEqual(100 + Math.floor(0.999 * first * 1_000));
		expect(second).toBeLessThanOrEqual(200 + first * 1_000);
		expect(third - second).toBeGreaterThanOrEqual(100 + Math.floor(0.999 * again * 1_000));
		expect(third - second).toBeLessThanOrEqual(200 + again * 1_000);
	});

	it('the other requests of the window wait as long, and the refused one goes first', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const window = pacedWindow();
		const order: string[] = [];
		const refused = scripted([], {
			window,
			send: async () => {
				order.push('refused');
				return order.length === 1 ? await refusedFor(300)() : answer(200);
			},
		}).run();
		await jest.advanceTimersByTimeAsync(10);
		// Sent during the hold: it waits for the hold's end, and behind the refused request.
		const other = sendPaced(window, async () => {
			order.push(`other at ${Date.now() - 1_000_000}`);
		});
		await jest.advanceTimersByTimeAsync(1_000);
		await Promise.all([refused, other]);
		expect(order[0]).toBe('refused');
		expect(order[1]).toBe('refused');
		expect(Number(order[2].replace('other at ', ''))).toBeGreaterThanOrEqual(300);
	});
});

describe('a refused request sent again', () => {
	it('goes ahead of first attempts waiting for a place, behind earlier refused ones', async () => {
		const window = new RequestWindow({ limit: 1, windowMs: 1_000 });
		const order: string[] = [];
		const send = (name: string, again = false) =>
			sendPaced(
				window,
				async () => {
					order.push(name);
				},
				undefined,
				undefined,
				again,
			);
		await send('first');
		const waiting = [send('new 1'), send('again 1', true), send('new 2'), send('again 2', true)];
		await jest.advanceTimersByTimeAsync(5_000);
		await Promise.all(waiting);
		expect(order).toEqual(['first', 'again 1', 'again 2', 'new 1', 'new 2']);
	});
});

describe('a refusal until a time beyond any wait (a cap, such as the AI requests of a day)', () => {
	it.each([
		['nextValidRequestDate', { nextValidRequestDate: '2000-01-01T13:00:00.000Z' }, {}],
		['Retry-After', {}, { 'Retry-After': String(3 * 3600) }],
	])(
		'fails at once from %s, with the time it reopens, and holds nothing',
		async (_, body, headers) => {
			jest.setSystemTime(Date.parse('2000-01-01T10:00:00.000Z'));
			const window = pacedWindow();
			const script = scripted([answer(429, { message: 'Daily limit reached', ...body }, headers)], {
				window,
			});
			expect(await failureOf(script)).toMatchObject({
				status: 429,
				attempts: 1,
				reopensAt: '2000-01-01T13:00:00.000Z',
			});
			expect(script.sent).toHaveLength(1);
			expect(window.holdEnds).toBe(0);
			expect(window.allowance?.value).toBe(20);
			// The window is free: the next request goes at once.
			let sent = false;
			await sendPaced(window, async () => {
				sent = true;
			});
			expect(sent).toBe(true);
		},
	);

	it('a time within the longest wait is waited out', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0);
		const script = scripted([refusedFor(MAX_SINGLE_WAIT_MS - 100), async () => answer(200)], {
			window: pacedWindow(),
		});
		const done = script.run();
		await jest.advanceTimersByTimeAsync(MAX_SINGLE_WAIT_MS);
		expect((await done).statusCode).toBe(200);
		expect(script.sent).toHaveLength(2);
	});
});
