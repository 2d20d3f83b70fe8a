import { AI_LIMIT, sendPaced } from '../../nodes/Fliplet/transport/pacing';

describe('AI pacing (helper)', () => {
	beforeEach(() => jest.useFakeTimers({ now: 0 }));
	afterEach(() => jest.useRealTimers());

	it(`holds an execution's AI calls to one app at ${AI_LIMIT.limit} per ${AI_LIMIT.windowMs / 1000} s, per app`, async () => {
		const context = {};
		const started: Array<[string, number]> = [];
		const call = (path: string) =>
			sendPaced(context, path, async () => {
				started.push([path, Date.now()]);
			});
		const calls = Array.from({ length: AI_LIMIT.limit + 1 }, () =>
			call('/v1/apps/11/ai/completions'),
		);
		calls.push(call('/v1/apps/21/ai/embeddings'));
		await jest.advanceTimersByTimeAsync(AI_LIMIT.windowMs - 1);
		expect(started.filter(([path]) => path.startsWith('/v1/apps/11/'))).toHaveLength(
			AI_LIMIT.limit,
		);
		expect(started.filter(([path]) => path.startsWith('/v1/apps/21/'))).toEqual([
			['/v1/apps/21/ai/embeddings', 0],
		]);
		await jest.advanceTimersByTimeAsync(2);
		await Promise.all(calls);
		expect(started[started.length - 1]).toEqual([
			'/v1/apps/11/ai/completions',
			AI_LIMIT.windowMs + 1,
		]);
	});

	it('leaves other areas unpaced', async () => {
		const started: number[] = [];
		await Promise.all(
			Array.from({ length: 30 }, () =>
				sendPaced({}, '/v1/communicate/email', async () => {
					started.push(Date.now());
				}),
			),
		);
		expect(started).toHaveLength(30);
	});
});
