import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type SandboxRequest,
} from '../harness';
import { COMPLETIONS, PUBLISHED_APP } from '../ai/fixtures';
import { dataSourceWith, runSync, storedData } from '../sync/fixtures';

// The sandbox at the platform's documented limits (sandbox/rateLimit.js), as the node paces them.
const sandbox = useSandbox({ rateLimits: true });

const refusals = (requests: SandboxRequest[]) =>
	requests.filter((request) => request.status === 429).length;

/**
 * Under a sliding window of `limit` requests per `windowMs`, a request counted by the server at
 * arrival is never refused when the one `limit` places before it arrived a full window earlier.
 */
function expectWithinWindow(requests: SandboxRequest[], limit: number, windowMs: number) {
	const arrivals = requests.map((request) => request.at).sort((a, b) => a - b);
	for (let n = limit; n < arrivals.length; n++) {
		expect(arrivals[n] - arrivals[n - limit]).toBeGreaterThanOrEqual(windowMs);
	}
}

const rows = (prefix: string, count: number): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({ Email: `${prefix}${n}@x.io`, N: n }));

describe('one rate window per host, token and area, shared by every node and execution', () => {
	it('two Fliplet nodes in one execution and two more executions on one token: no 429 at 200 per 10 s', async () => {
		const source = await dataSourceWith(sandbox(), rows('a', 80), 'Shared Source');
		const ids = [
			await dataSourceWith(sandbox(), [], 'Shared A'),
			await dataSourceWith(sandbox(), [], 'Shared B'),
			await dataSourceWith(sandbox(), [], 'Shared C'),
		];
		// The set-up's own requests (another client of the token) are not the node's to count.
		sandbox().rateLimiter.reset();
		const dataSource = (id: number) => ({ __rl: true, mode: 'id', value: String(id) });
		// One commit per row: 80 commits and a few reads each, about 250 requests in all.
		const syncInto = (id: number) => ({
			resource: 'entry',
			operation: 'sync',
			dataSource: dataSource(id),
			keyColumns: 'Email',
			syncOptions: { chunkSize: 1 },
		});
		const [twoNodes, ...parallel] = await Promise.all([
			// Get Many of one data source, then Sync of its rows into another, in one execution.
			runNode({
				before: [
					{
						name: 'Read Source',
						parameters: {
							resource: 'entry',
							operation: 'getMany',
							dataSource: dataSource(source),
							returnAll: true,
							entryOutput: 'columns',
						},
					},
				],
				parameters: syncInto(ids[0]) as never,
				credentials: sandboxCredential(sandbox()),
			}),
			runSync(sandbox(), ids[1], rows('b', 80), { syncOptions: { chunkSize: 1 } }),
			runSync(sandbox(), ids[2], rows('c', 80), { syncOptions: { chunkSize: 1 } }),
		]);
		for (const run of [twoNodes, ...parallel]) expect(run.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources/);
		expect(requests.length).toBeGreaterThan(200);
		expect(refusals(requests)).toBe(0);
		expectWithinWindow(requests, 200, 10_000);
		for (const id of ids) expect(storedData(sandbox(), id)).toHaveLength(80);
	}, 120_000);

	it('email and SMS: 22 messages from two executions on one token, paced to 20 per 30 s, none refused', async () => {
		const send = (prefix: string) =>
			runNode({
				parameters: {
					resource: 'email',
					operation: 'send',
					to: '={{ $json.to }}',
					subject: 'Pacing',
					html: '<p>Hi</p>',
				},
				input: Array.from({ length: 11 }, (_, n) => ({ json: { to: `${prefix}${n}@x.io` } })),
				credentials: sandboxCredential(sandbox()),
			});
		const runs = await Promise.all([send('first'), send('second')]);
		for (const run of runs) expect(run.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/communicate\//);
		expect(requests).toHaveLength(22);
		expect(refusals(requests)).toBe(0);
		expectWithinWindow(requests, 20, 30_000);
		expect(sandbox().state.sent.emails).toHaveLength(22);
	}, 120_000);

	it('audit logs: 32 reads from two executions on one token, paced to 30 per 10 s, none refused', async () => {
		const read = () =>
			runNode({
				parameters: {
					resource: 'organization',
					operation: 'getAuditLogs',
					organization: { __rl: true, mode: 'id', value: '1' },
					returnAll: false,
					limit: 1,
				} as never,
				input: Array.from({ length: 16 }, () => ({ json: {} })),
				credentials: sandboxCredential(sandbox(), TOKENS.org),
			});
		const runs = await Promise.all([read(), read()]);
		for (const run of runs) expect(run.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/organizations\/1\/logs/);
		expect(requests).toHaveLength(32);
		expect(refusals(requests)).toBe(0);
		expectWithinWindow(requests, 30, 10_000);
	}, 120_000);
});

describe("AI requests a minute follow the credential's plan", () => {
	it('a paid plan sends 100 AI requests a minute, from two executions, none refused', async () => {
		// The app's organization is on a paid plan: the sandbox allows it 100 AI requests a minute.
		sandbox().state.plans.set(1, 'paid');
		const { flipletApi } = sandboxCredential(sandbox());
		const generate = () =>
			runNode({
				parameters: {
					resource: 'ai',
					operation: 'generateText',
					app: PUBLISHED_APP,
					model: 'gpt-4o-mini',
					prompt: '={{ "Say " + $json.n }}',
				} as never,
				input: Array.from({ length: 50 }, (_, n) => ({ json: { n } })),
				credentials: { flipletApi: { ...flipletApi, aiPlan: 'paid' } },
			});
		// The Free plan's pace (10 a minute) would hold the 11th request for a minute.
		const runs = await Promise.all([generate(), generate()]);
		for (const run of runs) expect(run.error).toBeUndefined();
		const requests = apiRequests(sandbox(), COMPLETIONS);
		expect(requests).toHaveLength(100);
		expect(refusals(requests)).toBe(0);
		expect(sandbox().state.ai.calls).toHaveLength(100);
	}, 50_000);

	it('the sandbox refuses the 11th AI request of a minute on the Free plan, and allows 100 on a paid one', async () => {
		const { callSandbox } = await import('../harness');
		const complete = () =>
			callSandbox(
				sandbox(),
				'POST',
				'/v1/apps/11/ai/completions',
				{ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
				TOKENS.app,
			);
		const statuses = async (count: number) => {
			const answers: number[] = [];
			for (let n = 0; n < count; n++) answers.push((await complete()).status);
			return answers;
		};
		expect(await statuses(11)).toEqual([...Array(10).fill(200), 429]);
		sandbox().rateLimiter.reset();
		sandbox().state.plans.set(1, 'paid');
		expect(await statuses(101)).toEqual([...Array(100).fill(200), 429]);
	});
});
