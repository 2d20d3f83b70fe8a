import { forgetRateWindows, rateWindowFor, sendPaced } from '../../nodes/Fliplet/transport/pacing';

describe('pacing after a refusal (helper)', () => {
	beforeEach(() => {
		jest.useFakeTimers({ now: 0 });
		forgetRateWindows();
	});
	afterEach(() => jest.useRealTimers());

	const HOST = 'https://api.fliplet.com';
	const DATA = '/v1/data-sources/1/data';
	const token = { accessToken: 'eu--one' };
	const windowOf = (path: string, credentials = token) => rateWindowFor(HOST, credentials, path);

	it("holds the token's requests to the refused area until the time the API named", async () => {
		const started: Array<[string, number]> = [];
		const send = (path: string, credentials = token) =>
			sendPaced(windowOf(path, credentials), async () => {
				started.push([path, Date.now()]);
			});
		windowOf(DATA)!.hold(500);
		const held = send(DATA);
		const otherArea = send('/v1/apps/11/ai/completions');
		const otherToken = send(DATA, { accessToken: 'eu--two' });
		await jest.advanceTimersByTimeAsync(499);
		expect(started).toEqual([
			['/v1/apps/11/ai/completions', 0],
			[DATA, 0],
		]);
		await jest.advanceTimersByTimeAsync(1);
		await Promise.all([held, otherArea, otherToken]);
		expect(started[2]).toEqual([DATA, 500]);
	});

	it('counts served answers, not refused ones, per window', async () => {
		const window = windowOf(DATA)!;
		const answer = (status: number) =>
			sendPaced(
				window,
				async () => status,
				(result) => result !== 429,
			);
		expect(window.served).toBe(0);
		await answer(200);
		await answer(429);
		await answer(404);
		await expect(
			sendPaced(window, async () => {
				throw new Error('socket hang up');
			}),
		).rejects.toThrow('socket hang up');
		expect(window.served).toBe(2);
		expect(windowOf('/v1/apps/11/ai/completions')!.served).toBe(0);
		expect(windowOf('/v1/apps/11/publish')).toBeUndefined();
	});
});
