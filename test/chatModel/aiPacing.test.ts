import { AI_POLICY } from '../../nodes/Fliplet/transport/allowance';
import {
	AI_LIMITS,
	forgetRateWindows,
	rateWindowFor,
	sendPaced,
} from '../../nodes/Fliplet/transport/pacing';
import { FREE_PLAN_HINT } from '../../nodes/Fliplet/helpers/aiRequest';
import { COMPLETIONS, EMBEDDINGS, PUBLISHED_APP } from '../ai/fixtures';
import { embeddingsRunner } from '../embeddings/runEmbeddings';
import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type RunResult,
	type SandboxRequest,
} from '../harness';
import { CHAT_MODEL_NODE } from './runModel';

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
			const window = (p: typeof plan) =>
				rateWindowFor(
					HOST,
					{ accessToken: 'eu--one', aiPlan: p },
					'/v1/apps/11/ai/completions',
					'organization 1',
				);
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
			// A place comes back a window after its request ended, plus the lag that a process sending
			// full windows leaves to another's refused request (see Allowance.retakeLagMs).
			const lag = window(plan)!.allowance!.retakeLagMs;
			expect(lag).toBe(AI_POLICY.retakeLagShare * windowMs);
			await jest.advanceTimersByTimeAsync(lag);
			// Still the organization's first minute of requests, and the other organization's one.
			expect(started).toHaveLength(limit + 1);
			await jest.advanceTimersByTimeAsync(2);
			await Promise.all(calls);
			expect(started[started.length - 1][1]).toBe(windowMs + lag + 1);
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

// ---------------------------------------------------------------------------------------------
// Through n8n-core, against the sandbox at the platform's limits.
// ---------------------------------------------------------------------------------------------

const sandbox = useSandbox({ rateLimits: true });

/** Generate Text of one item per `count`, on `app`, with `token` (and the credential's plan). */
const generateText = (
	count: number,
	app = PUBLISHED_APP,
	token = TOKENS.app,
	aiPlan?: 'free' | 'paid',
) => {
	const credentials = sandboxCredential(sandbox(), token);
	if (aiPlan) credentials.flipletApi.aiPlan = aiPlan;
	return runNode({
		parameters: {
			resource: 'ai',
			operation: 'generateText',
			app,
			model: 'gpt-4o-mini',
			prompt: '={{ "Say " + $json.n }}',
		} as never,
		input: Array.from({ length: count }, (_, n) => ({ json: { n } })),
		credentials,
	});
};

/** The Chat Model on `app` with `token`, invoked once by an AI node. */
const chatModel = (app = PUBLISHED_APP, token = TOKENS.app) =>
	runNode({
		nodeType: 'test.modelUser',
		parameters: { use: 'invoke', prompt: 'Hello there' },
		credentials: sandboxCredential(sandbox(), token),
		subNodes: [
			{
				name: CHAT_MODEL_NODE,
				type: 'n8n-nodes-fliplet.flipletChatModel',
				connection: 'ai_languageModel',
				parameters: { app, model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
			},
		],
	});

/** The next UTC midnight: when the sandbox's cap a day reopens. */
const nextUtcMidnight = () => {
	const day = 24 * 3600_000;
	return new Date((Math.floor(Date.now() / day) + 1) * day).toISOString();
};

describe("an AI cap a day reached (the organization's requests of its plan)", () => {
	let documented: Record<string, number>;
	beforeEach(() => {
		documented = { ...sandbox().rateLimiter.dailyCaps };
	});
	afterEach(() => {
		Object.assign(sandbox().rateLimiter.dailyCaps, documented);
	});

	/** The cap's error names when it reopens, and came without a wait (the loop waited 8 × 65 s). */
	const expectCapError = (error: RunResult['error'], requests: SandboxRequest[]) => {
		expect(error?.message).toBe(
			`Rate limit reached until ${nextUtcMidnight()}: You've reached your plan's daily limit of AI requests.`,
		);
		expect(Date.now() - requests[requests.length - 1].at).toBeLessThan(10_000);
	};

	it('Generate Text fails at once with the time it reopens and what to change, and holds nothing', async () => {
		sandbox().rateLimiter.dailyCaps.ai = 2;
		const result = await generateText(3);
		const requests = apiRequests(sandbox(), COMPLETIONS);
		expect(requests.map((request) => request.status)).toEqual([200, 200, 429]);
		expectCapError(result.error, requests);
		expect(result.error?.description).toMatch(
			`Fliplet refuses these requests until ${nextUtcMidnight()}`,
		);
		expect(result.error?.description).toMatch(
			/AI requests a day .*Raise the plan in Fliplet Studio, or run this workflow again after that time/,
		);
		expect(result.error?.context?.itemIndex).toBe(2);
		// The window was not held: once the cap allows it, the next request goes.
		sandbox().rateLimiter.dailyCaps.ai = 100;
		const again = await generateText(1);
		expect(again.error).toBeUndefined();
		expect(apiRequests(sandbox(), COMPLETIONS).map((request) => request.status)).toEqual([
			200, 200, 429, 200,
		]);
	});

	it("the Chat Model fails its AI node's call at once, the same way", async () => {
		sandbox().rateLimiter.dailyCaps.ai = 1;
		expect((await chatModel()).error).toBeUndefined();
		const result = await chatModel();
		const requests = apiRequests(sandbox(), COMPLETIONS);
		expect(requests.map((request) => request.status)).toEqual([200, 429]);
		expectCapError(result.error, requests);
	});
});

describe.each(['organization', 'app'] as const)(
	'two apps of one organization, the sandbox counting AI per %s',
	(aiScope) => {
		beforeEach(async () => {
			await callSandbox(sandbox(), 'POST', '/__sandbox/rate-limits', { aiScope });
		});

		it("share one window: Generate Text on one and the Chat Model on the other keep to the Free plan's 10 a minute, none refused", async () => {
			const otherApp = { __rl: true, mode: 'id', value: '21' };
			const runs = await Promise.all([
				generateText(6, PUBLISHED_APP, TOKENS.org),
				...Array.from({ length: 5 }, () => chatModel(otherApp, TOKENS.org)),
			]);
			for (const run of runs) expect(run.error).toBeUndefined();
			const requests = apiRequests(sandbox(), COMPLETIONS);
			expect(
				requests.filter((request) => request.path === '/v1/apps/11/ai/completions'),
			).toHaveLength(6);
			expect(
				requests.filter((request) => request.path === '/v1/apps/21/ai/completions'),
			).toHaveLength(5);
			expect(requests.filter((request) => request.status === 429)).toEqual([]);
			// The 11th of the organization's requests waited for the minute of the first.
			const arrivals = requests.map((request) => request.at).sort((a, b) => a - b);
			expect(arrivals[10] - arrivals[0]).toBeGreaterThanOrEqual(60_000);
			// The organization was learned once, from the apps the token reaches.
			expect(apiRequests(sandbox(), /^\/v1\/apps$/)).toHaveLength(1);
		}, 150_000);
	},
);

describe("the run's hint when AI requests wait for the Free plan's pace", () => {
	const embed = embeddingsRunner(sandbox);
	/** The messages of the hints n8n recorded for `node`'s first run. */
	const hintsOf = (result: RunResult, node = 'Under Test') =>
		(result.run.data.resultData.runData[node]?.[0]?.hints ?? []).map((hint) => hint.message);

	it('Generate Text, the Chat Model and the Embeddings sub-node that waited for a place say so once; a run that did not wait, or waited on a paid plan, does not', async () => {
		const unhindered = await generateText(10);
		expect(unhindered.error).toBeUndefined();
		expect(hintsOf(unhindered)).toEqual([]);
		// The organization's minute is used up: each of these waits for it (the paid plan's run is
		// refused by the platform, whose organization is on the Free plan, and waits too).
		const [text, model, embeddings, paid] = await Promise.all([
			generateText(2),
			chatModel(),
			embed(['a document'], ''),
			generateText(1, PUBLISHED_APP, TOKENS.app, 'paid'),
		]);
		for (const run of [text, model, embeddings, paid]) expect(run.error).toBeUndefined();
		expect(hintsOf(text)).toEqual([FREE_PLAN_HINT]);
		expect(hintsOf(model, CHAT_MODEL_NODE)).toEqual([FREE_PLAN_HINT]);
		expect(hintsOf(embeddings, 'Fliplet Embeddings')).toEqual([FREE_PLAN_HINT]);
		expect(hintsOf(paid)).toEqual([]);
		expect(FREE_PLAN_HINT).toBe(
			"Paced to the Free plan's 10 requests a minute: set Plan in the credential's Advanced Settings if yours allows more",
		);
		// They did wait: the first of them went a minute after the first run's.
		const arrivals = [...apiRequests(sandbox(), COMPLETIONS), ...apiRequests(sandbox(), EMBEDDINGS)]
			.filter((request) => request.status !== 429)
			.map((request) => request.at)
			.sort((a, b) => a - b);
		expect(arrivals[10] - arrivals[0]).toBeGreaterThanOrEqual(60_000);
	}, 150_000);
});
