import { holdPacedArea, sendPaced, servedInPacedArea } from '../../nodes/Fliplet/transport/pacing';

describe('pacing after a refusal (helper)', () => {
	beforeEach(() => jest.useFakeTimers({ now: 0 }));
	afterEach(() => jest.useRealTimers());

	const DATA = '/v1/data-sources/1/data';

	it("holds the execution's requests to the refused area until the time the API named", async () => {
		const context = {};
		const started: Array<[string, number]> = [];
		const send = (path: string) =>
			sendPaced(context, path, async () => {
				started.push([path, Date.now()]);
			});
		holdPacedArea(context, DATA, 500);
		const held = send(DATA);
		const otherArea = send('/v1/apps/11/ai/completions');
		await jest.advanceTimersByTimeAsync(499);
		expect(started).toEqual([['/v1/apps/11/ai/completions', 0]]);
		await jest.advanceTimersByTimeAsync(1);
		await Promise.all([held, otherArea]);
		expect(started[1]).toEqual([DATA, 500]);
		// Another execution is not held.
		await sendPaced({}, DATA, async () => started.push([DATA, Date.now()]));
		expect(started[2]).toEqual([DATA, 500]);
	});

	it('counts served answers, not refused ones, per area', async () => {
		const context = {};
		const answer = (path: string, status: number) =>
			sendPaced(
				context,
				path,
				async () => status,
				(result) => result === 429,
			);
		expect(servedInPacedArea(context, DATA)).toBe(0);
		await answer(DATA, 200);
		await answer(DATA, 429);
		await answer(DATA, 404);
		await expect(
			sendPaced(context, DATA, async () => {
				throw new Error('socket hang up');
			}),
		).rejects.toThrow('socket hang up');
		expect(servedInPacedArea(context, DATA)).toBe(2);
		expect(servedInPacedArea(context, '/v1/apps/11/ai/completions')).toBe(0);
		expect(servedInPacedArea(context, '/v1/communicate/email')).toBeUndefined();
	});
});
