/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Several n8n processes on one token against the sandbox's limiter model, in virtual time: each
// "process" has its own rate window (the transport's RequestWindow and Allowance) and runs the
// transport's real attempt loop (sendWithRetries); the server is the sandbox's RateLimiter. It
// prints, per scenario, the share of requests refused, the accepted requests' pace against the
// limit and the longest run of refusals of one request, over several seeds. It picks the pacing
// constants; `node bench/processes.js` then checks them with real n8n processes.
//
//   node bench/pacingSimulation.js
//   SIM_SEEDS=20 SIM_AREAS=communicate SIM_PROCESSES=4 node bench/pacingSimulation.js
//   SIM_POLICY='{"decrease":0.6}' node bench/pacingSimulation.js     (overrides the area's policy)

import { VirtualClock, seededRandom } from './virtualClock';

const clock = new VirtualClock();
clock.install();

// Loaded after the clock is installed (they read the time through Date.now and setTimeout).
const { sendWithRetries } =
	require('../nodes/Fliplet/transport/attempts') as typeof import('../nodes/Fliplet/transport/attempts');
const { RequestWindow } =
	require('../nodes/Fliplet/transport/requestWindow') as typeof import('../nodes/Fliplet/transport/requestWindow');
const policies =
	require('../nodes/Fliplet/transport/allowance') as typeof import('../nodes/Fliplet/transport/allowance');
const limits =
	require('../nodes/Fliplet/transport/rateLimits') as typeof import('../nodes/Fliplet/transport/rateLimits');
const { RateLimiter } = require('../sandbox/rateLimit');

type PacePolicy = import('../nodes/Fliplet/transport/allowance').PacePolicy;

export interface Scenario {
	area: 'data' | 'communicate';
	processes: number;
	/** The credential's count of processes. */
	setting: number;
	/** Requests each process makes. */
	requestsEach: number;
	/** Requests each process keeps on their way at once (a Sync: reads ahead and 4 commits). */
	concurrency: number;
	/** The processes start within this many ms of each other. */
	startSpreadMs: number;
	seed: number;
	policy?: Partial<PacePolicy>;
}

export interface Outcome {
	requests: number;
	refused: number;
	accepted: number;
	/** Accepted requests over the time they took, against the limit (1: the limit's full pace). */
	pace: number;
	/** The same until the first process finished: while every process had work. */
	busyPace: number;
	longestRefusalRun: number;
	failed: number;
	/** When each process finished (ms from the first start). */
	finishedAt: number[];
}

const AREAS = {
	data: {
		sandboxArea: 'dataSources',
		limit: limits.DATA_SOURCE_LIMIT,
		policy: policies.STEADY_POLICY,
	},
	communicate: {
		sandboxArea: 'communicate',
		limit: limits.COMMUNICATE_LIMIT,
		policy: policies.CAREFUL_POLICY,
	},
};

export async function simulate(scenario: Scenario): Promise<Outcome> {
	const random = seededRandom(scenario.seed);
	Math.random = random;
	const area = AREAS[scenario.area];
	const limiter = new RateLimiter(true);
	const policy = { ...area.policy, ...scenario.policy };
	const arrivals: Array<{ at: number; refused: boolean; process: number }> = [];
	const runs = new Map<string, { current: number; longest: number }>();
	let failed = 0;
	let running = 0;
	const start = clock.now;
	const finishedAt: number[] = [];
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	const processes = Array.from({ length: scenario.processes }, (_, index) => ({
		index,
		window: new RequestWindow(area.limit, { policy, processes: scenario.setting }),
		left: scenario.requestsEach,
	}));

	const sendOne = async (process: (typeof processes)[number], id: string) => {
		const run = { current: 0, longest: 0 };
		runs.set(id, run);
		try {
			await sendWithRetries({
				method: 'POST',
				options: { method: 'POST', baseURL: 'https://sim.test', url: `/${id}` },
				idempotent: scenario.area === 'data',
				deadlineMs: 60_000,
				window: process.window,
				parseError: (response) => response.body,
				fail: () => new Error('failed'),
				send: async () => {
					await sleep(LATENCY_MS * (0.2 + random() * 0.6));
					const until: Date | null = limiter.check('token', area.sandboxArea, Date.now());
					arrivals.push({ at: Date.now(), refused: until !== null, process: process.index });
					run.current = until ? run.current + 1 : 0;
					run.longest = Math.max(run.longest, run.current);
					await sleep(LATENCY_MS * (0.2 + random() * 0.6));
					return until
						? { statusCode: 429, headers: {}, body: { nextValidRequestDate: until.toISOString() } }
						: { statusCode: 200, headers: {}, body: {} };
				},
			});
		} catch {
			failed++;
		}
	};

	const worker = async (process: (typeof processes)[number]) => {
		while (process.left > 0) {
			const n = process.left--;
			await sendOne(process, `${process.index}-${n}`);
		}
	};

	for (const process of processes) {
		running++;
		const delay = random() * scenario.startSpreadMs;
		void sleep(delay).then(async () => {
			await Promise.all(Array.from({ length: scenario.concurrency }, () => worker(process)));
			finishedAt[process.index] = clock.now - start;
			running--;
		});
	}
	if (process.env.SIM_TRACE) {
		void (async () => {
			while (running) {
				await sleep(Number(process.env.SIM_TRACE_MS ?? area.limit.windowMs));
				const values = processes.map(
					(p) =>
						`${p.window.allowance!.value.toFixed(1).padStart(6)}/${arrivals.filter((a) => a.process === p.index && a.refused && a.at > clock.now - Number(process.env.SIM_TRACE_MS ?? area.limit.windowMs)).length}`,
				);
				const recent = arrivals.filter(
					(a) => a.at > clock.now - Number(process.env.SIM_TRACE_MS ?? area.limit.windowMs),
				);
				console.log(
					`${((clock.now - start) / 1000).toFixed(0).padStart(5)} s ${values.join(' ')} | last window: ${recent.filter((a) => !a.refused).length} accepted, ${recent.filter((a) => a.refused).length} refused`,
				);
			}
		})();
	}
	await clock.run(() => running === 0);

	const accepted = arrivals.filter((arrival) => !arrival.refused);
	const span = accepted[accepted.length - 1].at - arrivals[0].at;
	const floorMs = ((accepted.length - 1) * area.limit.windowMs) / area.limit.limit;
	const firstDone = start + Math.min(...finishedAt);
	const whileBusy = accepted.filter((arrival) => arrival.at <= firstDone);
	const busyFloorMs = ((whileBusy.length - 1) * area.limit.windowMs) / area.limit.limit;
	return {
		busyPace: busyFloorMs / Math.max(1, firstDone - arrivals[0].at),
		requests: arrivals.length,
		refused: arrivals.length - accepted.length,
		accepted: accepted.length,
		pace: floorMs / Math.max(1, span),
		longestRefusalRun: Math.max(...[...runs.values()].map((run) => run.longest)),
		failed,
		finishedAt,
	};
}

/** A request's mean time there and back (SIM_LATENCY_MS). */
const LATENCY_MS = Number(process.env.SIM_LATENCY_MS ?? 25);

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;

export async function main(): Promise<void> {
	const seeds = Number(process.env.SIM_SEEDS ?? 5);
	const areas = (process.env.SIM_AREAS ?? 'data,communicate').split(',') as Scenario['area'][];
	const counts = (process.env.SIM_PROCESSES ?? '2,4').split(',').map(Number);
	const policy = process.env.SIM_POLICY ? JSON.parse(process.env.SIM_POLICY) : undefined;
	console.log(
		'area | processes | setting | requests | refused (worst seed) | pace (worst seed) | pace while all busy (worst) | longest refusal run | failed | finish spread',
	);
	for (const area of areas) {
		for (const count of counts) {
			for (const setting of [1, count]) {
				const outcomes: Outcome[] = [];
				for (let seed = 1; seed <= seeds; seed++) {
					outcomes.push(
						await simulate({
							area,
							processes: count,
							setting,
							requestsEach:
								area === 'data'
									? Number(process.env.SIM_DATA_REQUESTS ?? 1500)
									: Number(process.env.SIM_SEND_REQUESTS ?? 150),
							concurrency: Number(process.env.SIM_CONCURRENCY ?? (area === 'data' ? 4 : 1)),
							startSpreadMs: area === 'data' ? 2000 : 5000,
							seed,
							policy,
						}),
					);
				}
				const sum = (pick: (o: Outcome) => number) => outcomes.reduce((t, o) => t + pick(o), 0);
				const refusedShares = outcomes.map((o) => o.refused / o.requests);
				const paces = outcomes.map((o) => o.pace);
				const busyPaces = outcomes.map((o) => o.busyPace);
				const spreads = outcomes.map(
					(o) =>
						(Math.max(...o.finishedAt) - Math.min(...o.finishedAt)) / Math.max(...o.finishedAt),
				);
				console.log(
					`${area} | ${count} | ${setting} | ${sum((o) => o.requests)} | ${percent(sum((o) => o.refused) / sum((o) => o.requests))} (${percent(Math.max(...refusedShares))}) | ${percent(sum((o) => o.pace) / seeds)} (${percent(Math.min(...paces))}) | ${percent(sum((o) => o.busyPace) / seeds)} (${percent(Math.min(...busyPaces))}) | ${Math.max(...outcomes.map((o) => o.longestRefusalRun))} | ${sum((o) => o.failed)} | ${percent(Math.max(...spreads))}`,
				);
			}
		}
	}
}
