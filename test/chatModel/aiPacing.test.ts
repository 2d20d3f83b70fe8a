import {
	AI_LIMITS,
	forgetRateWindows,
	rateWindowFor,
	sendPaced,
} from '../../nodes/Fliplet/transport/pacing';

describe('AI pacing (helper)', () => {
	beforeEach(() => {
		jest.useFakeTimers({ now: 0 });
		forgetRateWindows();
	});
	afterEach(() => jest.useRealTimers());

	const HOST = 'https://api.fliplet.com';

	it.each([
		['free', undefined],
		['free', 'free'],
		['paid', 'paid'],
	] as const)(
		'holds AI calls to the apps of one organization at the %s plan limit (credential field %s), whichever token',
		async (plan, aiPlan) => {
			const { limit, windowMs } = AI_LIMITS[plan];
			const started: Array<[string, number]> = [];
			const call = (path: string, token: string, organization: string) =>
				sendPaced(
					rateWindowFor(HOST, { accessToken: token, aiPlan }, path, organization),
					async () => {
						started.push([path, Date.now()]);
					},
				);
			// Two tokens and two apps of one organization share its limit; another one has its own.
			const calls = Array.from({ length: limit + 1 }, (_, n) =>
				call(
					n % 2 ? '/v1/apps/11/ai/completions' : '/v1/apps/21/ai/image',
					n % 3 ? 'eu--one' : 'eu--two',
					'organization 1',
				),
			);
			calls.push(call('/v1/apps/31/ai/embeddings', 'eu--one', 'organization 2'));
			await jest.advanceTimersByTimeAsync(windowMs - 1);
			const ofOrganization = started.filter(([path]) => !path.startsWith('/v1/apps/31/'));
			expect(ofOrganization).toHaveLength(limit);
			expect(started.filter(([path]) => path.startsWith('/v1/apps/31/'))).toEqual([
				['/v1/apps/31/ai/embeddings', 0],
			]);
			await jest.advanceTimersByTimeAsync(2);
			await Promise.all(calls);
			expect(started[started.length - 1][1]).toBe(windowMs + 1);
		},
	);

	it('the plans are the AI docs: 10 a minute on the Free plan, 100 on paid plans', () => {
		expect(AI_LIMITS).toEqual({
			free: { limit: 10, windowMs: 60_000 },
			paid: { limit: 100, windowMs: 60_000 },
		});
	});

	it('leaves areas without a documented limit unpaced', async () => {
		const started: number[] = [];
		const window = rateWindowFor(HOST, { accessToken: 'eu--one' }, '/v1/apps/11/publish');
		await Promise.all(
			Array.from({ length: 300 }, () =>
				sendPaced(window, async () => {
					started.push(Date.now());
				}),
			),
		);
		expect(started).toHaveLength(300);
	});
});
