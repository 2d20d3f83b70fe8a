/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Several n8n processes on one token against the sandbox's limiter model, in virtual time: each
// "process" has its own rate window (the transport's RequestWindow and Allowance) and runs the
// transport's real attempt loop (sendWithRetries); the server is the sandbox's RateLimiter. It
// prints, per scenario, each figure beside its goal over many seeds: the share of requests refused,
// the accepted requests' pace against the best the limit's windows allow, the longest run of
// refusals of one request; and how soon a process alone sends a window's allowance of email. It
// picks the pacing constants; `node bench/processes.js` then checks them with real n8n processes,
// and test/reliability/pacingSimulation.test.ts holds the refusal runs to their bound.
//
//   node bench/pacingSimulation.js
//   SIM_SEEDS=20 node bench/pacingSimulation.js
//   SIM_POLICY='{"decrease":0.6}' node bench/pacingSimulation.js     (overrides the area's policy)

import { VirtualClock, seededRandom } from './virtualClock';
import { sendWithRetries } from '../nodes/Fliplet/transport/attempts';
import { RequestWindow } from '../nodes/Fliplet/transport/requestWindow';
import {
	CAREFUL_POLICY,
	STEADY_POLICY,
	type PacePolicy,
} from '../nodes/Fliplet/transport/allowance';
import { COMMUNICATE_LIMIT, DATA_SOURCE_LIMIT } from '../nodes/Fliplet/transport/rateLimits';

const { RateLimiter } = require('../sandbox/rateLimit');
const { longestRefusalRun, longestRefusalRunOfAlike } = require('../scripts/lib/refusals');

export interface Scenario {
	area: 'data' | 'communicate';
	processes: number;
	/** The credential's count of processes. */
	setting: number;
	/** Requests each execution makes. */
	requestsEach: number;
	/** Requests each execution keeps on their way at once (a Sync: reads ahead and 4 commits). */
	concurrency: number;
	/** Executions each process runs at once (default 1). */
	executions?: number;
	/** The executions start within this many ms of each other. */
	startSpreadMs: number;
	seed: number;
	policy?: Partial<PacePolicy>;
	/** A request's mean time there and back (default 25 ms). */
	latencyMs?: number;
	/**
	 * Each process's event loop stalls now and then, as on a busy machine: a stall every `everyMs`
	 * on average, each up to `maxMs` long; its timers (and the answers it reads) wait meanwhile.
	 */
	stalls?: { everyMs: number; maxMs: number };
}

export interface Outcome {
	requests: number;
	refused: number;
	accepted: number;
	/**
	 * The least time the limit's windows allow for the accepted requests (the limit at once, then
	 * the limit again each window later) over the time they took, from the first arrival: 1 is the
	 * best pace.
	 */
	pace: number;
	/** That least time, in windows: the pace goal holds for runs of at least 3. */
	bestWindows: number;
	/** Milliseconds from the first arrival until the limit's worth of requests was accepted. */
	firstWindowMs: number;
	/** The longest run of refusals of one request (its first attempt and its re-sends). */
	longestRefusalRun: number;
	/**
	 * The same as the queue tier's check counts it from what the sandbox records: by method, path
	 * and body, alike requests told apart by the time their refusals named (the same first or last
	 * request of several executions, as concurrent Syncs into one data source send alike).
	 */
	checkedRun: number;
	/** The same with alike requests counted as one (as that check counted before). */
	alikeRun: number;
	failed: number;
	/** When each process finished (ms from the first start). */
	finishedAt: number[];
}

const AREAS = {
	data: { sandboxArea: 'dataSources', limit: DATA_SOURCE_LIMIT, policy: STEADY_POLICY },
	communicate: { sandboxArea: 'communicate', limit: COMMUNICATE_LIMIT, policy: CAREFUL_POLICY },
};

/** Runs one scenario in virtual time: the clock and Math.random are the simulation's meanwhile. */
export async function simulate(scenario: Scenario): Promise<Outcome> {
	const clock = new VirtualClock();
	const random = seededRandom(scenario.seed);
	const realRandom = Math.random;
	clock.install();
	Math.random = random;
	try {
		return await run(scenario, clock, random);
	} finally {
		clock.uninstall();
		Math.random = realRandom;
	}
}

async function run(scenario: Scenario, clock: VirtualClock, random: () => number) {
	const area = AREAS[scenario.area];
	const { limit, windowMs } = area.limit;
	const limiter = new RateLimiter(true);
	const policy = { ...area.policy, ...scenario.policy };
	const arrivals: Array<{ at: number; reopensAt?: number; identity: string }> = [];
	const runs = new Map<string, { current: number; longest: number }>();
	let failed = 0;
	let running = 0;
	const latencyMs = scenario.latencyMs ?? 25;
	const finishedAt: number[] = [];
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	/** One way of a request: a random share of the time there and back. */
	const oneWay = () => sleep(latencyMs * (0.2 + random() * 0.6));

	const processes = Array.from({ length: scenario.processes }, (_, index) => ({
		index,
		window: new RequestWindow(area.limit, { policy, processes: scenario.setting }),
	}));
	type Process = (typeof processes)[number];

	/** `identity`: what the queue tier's check tells requests by (see scripts/lib/refusals.js). */
	const sendOne = async (process: Process, id: string, identity: string) => {
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
					await oneWay();
					const until: Date | null = limiter.check('token', area.sandboxArea, Date.now());
					arrivals.push({ at: Date.now(), reopensAt: until?.getTime(), identity });
					run.current = until ? run.current + 1 : 0;
					run.longest = Math.max(run.longest, run.current);
					await oneWay();
					return until
						? { statusCode: 429, headers: {}, body: { nextValidRequestDate: until.toISOString() } }
						: { statusCode: 200, headers: {}, body: {} };
				},
			});
		} catch {
			failed++;
		}
	};

	/**
	 * One execution of a process: `requestsEach` requests, `concurrency` at a time. With several
	 * executions, each one's first and last request are the same request as the other
	 * executions' (as concurrent Syncs into one data source look at its first entry and check
	 * it for duplicates alike).
	 */
	const execution = async (process: Process, job: number) => {
		const shared = executions > 1;
		const name = `${process.index}.${job}`;
		if (shared) await sendOne(process, `${name}-first`, 'first');
		let left = scenario.requestsEach - (shared ? 2 : 0);
		const worker = async () => {
			while (left > 0) {
				const n = left--;
				await sendOne(process, `${name}-${n}`, `${name}-${n}`);
			}
		};
		await Promise.all(Array.from({ length: scenario.concurrency }, worker));
		if (shared) await sendOne(process, `${name}-last`, 'last');
	};

	const stalls = processes.map(() => ({ from: 0, until: 0 }));
	clock.stallOf = (owner, now) => {
		if (!scenario.stalls) return undefined;
		const stall = stalls[(owner as Process).index];
		while (stall.until <= now) {
			stall.from = stall.until - scenario.stalls.everyMs * Math.log(1 - random());
			stall.until = stall.from + random() * scenario.stalls.maxMs;
		}
		return now >= stall.from ? stall.until : undefined;
	};

	const executions = scenario.executions ?? 1;
	for (const process of processes) {
		running++;
		clock.context.run(process, () => {
			const jobs = Array.from({ length: executions }, (_, job) =>
				sleep(random() * scenario.startSpreadMs).then(() => execution(process, job)),
			);
			void Promise.all(jobs).then(() => {
				finishedAt[process.index] = clock.now;
				running--;
			});
		});
	}
	await clock.run(() => running === 0);

	const accepted = arrivals.filter((arrival) => arrival.reopensAt === undefined);
	const asRecorded = arrivals.map(({ at, reopensAt, identity }) => ({
		method: 'POST',
		path: identity,
		status: reopensAt === undefined ? 200 : 429,
		at,
		reopensAt,
	}));
	const first = arrivals[0].at;
	const bestWindows = Math.floor((accepted.length - 1) / limit);
	return {
		requests: arrivals.length,
		refused: arrivals.length - accepted.length,
		accepted: accepted.length,
		pace: (bestWindows * windowMs) / Math.max(1, accepted[accepted.length - 1].at - first),
		bestWindows,
		firstWindowMs: (accepted[limit - 1]?.at ?? Infinity) - first,
		longestRefusalRun: Math.max(...[...runs.values()].map((run) => run.longest)),
		checkedRun: longestRefusalRun(asRecorded),
		alikeRun: longestRefusalRunOfAlike(asRecorded),
		failed,
		finishedAt,
	};
}

/**
 * Processes on one token left at the credential's default count of 1, in the shapes that meet the
 * most refusals: late starters into a full window, several executions whose first and last
 * requests are alike, stalled event loops, email one at a time. No request may be refused more
 * than twice in a row in any of them (the test runs 200 seeds of each).
 */
export const REFUSAL_RUN_SCENARIOS: Array<Omit<Scenario, 'seed'>> = [
	{
		area: 'data',
		processes: 2,
		setting: 1,
		requestsEach: 300,
		concurrency: 5,
		startSpreadMs: 2000,
	},
	{
		area: 'data',
		processes: 4,
		setting: 1,
		requestsEach: 200,
		concurrency: 5,
		startSpreadMs: 2000,
	},
	{
		area: 'data',
		processes: 2,
		setting: 1,
		requestsEach: 54,
		executions: 5,
		concurrency: 4,
		startSpreadMs: 3000,
		latencyMs: 150,
		stalls: { everyMs: 1000, maxMs: 500 },
	},
	{
		area: 'communicate',
		processes: 2,
		setting: 1,
		requestsEach: 40,
		concurrency: 1,
		startSpreadMs: 3000,
	},
	{
		area: 'communicate',
		processes: 4,
		setting: 1,
		requestsEach: 25,
		concurrency: 2,
		startSpreadMs: 3000,
		latencyMs: 100,
		stalls: { everyMs: 2000, maxMs: 500 },
	},
];

/**
 * Processes on one token with the credential's count set to them, as bench/processes.js runs them
 * (12 windows): their shares add up to the limit, and a probe past one meets the others. No request
 * may be refused more than twice in a row here either (the test runs 200 seeds of each). Email is
 * left out: within bench/processes.js's 5 windows its processes never reach a probe past their
 * share (8 growth steps come first), and nothing is refused.
 */
export const COUNTED_SCENARIOS: Array<Omit<Scenario, 'seed'>> = [
	{ area: 'data', processes: 4, setting: 4, requestsEach: 600, concurrency: 5, startSpreadMs: 300 },
];

const GOALS = {
	pace: 0.8,
	dataRefused: 0.03,
	emailRefused: 0.01,
	refusalRun: 2,
	emailAtOnceMs: 2000,
};

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Runs `base` over `seeds` seeds. */
async function seedsOf(base: Omit<Scenario, 'seed'>, seeds: number, policy?: Partial<PacePolicy>) {
	const outcomes: Outcome[] = [];
	for (let seed = 1; seed <= seeds; seed++) {
		outcomes.push(await simulate({ ...base, seed, policy: { ...base.policy, ...policy } }));
	}
	const sum = (pick: (o: Outcome) => number) => outcomes.reduce((t, o) => t + pick(o), 0);
	const worst = (pick: (o: Outcome) => number, most = true) =>
		outcomes.map(pick).reduce((a, b) => (most ? Math.max(a, b) : Math.min(a, b)));
	return {
		requests: sum((o) => o.requests),
		refused: sum((o) => o.refused) / sum((o) => o.requests),
		worstRefused: worst((o) => o.refused / o.requests),
		pace: sum((o) => o.pace) / seeds,
		worstPace: worst((o) => o.pace, false),
		bestWindows: worst((o) => o.bestWindows, false),
		firstWindowMs: worst((o) => o.firstWindowMs),
		longestRefusalRun: worst((o) => o.longestRefusalRun),
		checkedRun: worst((o) => o.checkedRun),
		alikeRun: worst((o) => o.alikeRun),
		failed: sum((o) => o.failed),
	};
}

export async function main(): Promise<void> {
	const seeds = Number(process.env.SIM_SEEDS ?? 20);
	const policy = process.env.SIM_POLICY ? JSON.parse(process.env.SIM_POLICY) : undefined;
	console.log(
		`Processes on one token in virtual time, ${seeds} seeds each (figures: mean, worst seed in brackets). Pace: the least time the limit's windows allow for the accepted requests over the time they took.`,
	);
	console.log(
		'\nAs bench/processes.js runs them (each process a Sync of 5 requests at once, and email batches one at a time; started within 0.3 s):',
	);
	console.log(
		'| Area | Processes | Count | Requests | Refused | Pace | Longest refusal run | Goal |',
	);
	console.log('| --- | --: | --: | --: | --: | --: | --: | --- |');
	for (const area of ['data', 'communicate'] as const) {
		for (const count of [1, 2, 4]) {
			for (const setting of count === 1 ? [1] : [1, count]) {
				const total = area === 'data' ? 2400 : 120;
				const figures = await seedsOf(
					{
						area,
						processes: count,
						setting,
						requestsEach: total / count,
						concurrency: area === 'data' ? 5 : 1,
						startSpreadMs: count === 1 ? 0 : 300,
					},
					seeds,
					policy,
				);
				const goals: string[] = [];
				const met: boolean[] = [];
				const refusedGoal = area === 'data' ? GOALS.dataRefused : GOALS.emailRefused;
				if (setting > 1) {
					goals.push(`refused ≤ ${percent(refusedGoal)}`);
					met.push(figures.worstRefused <= refusedGoal);
				}
				if (area === 'data' && figures.bestWindows >= 3) {
					goals.push(`pace ≥ ${percent(GOALS.pace)}`);
					met.push(figures.worstPace >= GOALS.pace);
				}
				if (area === 'communicate' && count === 1) {
					goals.push(
						`${COMMUNICATE_LIMIT.limit} sent within ${GOALS.emailAtOnceMs / 1000} s (${(figures.firstWindowMs / 1000).toFixed(2)} s)`,
					);
					met.push(figures.firstWindowMs <= GOALS.emailAtOnceMs);
				}
				goals.push(`run ≤ ${GOALS.refusalRun}`);
				met.push(figures.longestRefusalRun <= GOALS.refusalRun && !figures.failed);
				console.log(
					`| ${area === 'data' ? 'data sources' : 'email'} | ${count} | ${setting} | ${figures.requests} | ${percent(figures.refused)} (${percent(figures.worstRefused)}) | ${percent(figures.pace)} (${percent(figures.worstPace)}) | ${figures.longestRefusalRun} | ${goals.join(', ')}: ${met.every(Boolean) ? 'MET' : 'NOT MET'} |`,
				);
			}
		}
	}
	console.log(
		'\nHarder shapes, the credential left at 1 (the refusal-run test runs 200 seeds of each):',
	);
	console.log(
		'| Scenario | Requests | Refused | Pace | Longest refusal run: of one request, as the queue tier counts it, alike requests as one | Goal |',
	);
	console.log('| --- | --: | --: | --: | --: | --- |');
	for (const base of REFUSAL_RUN_SCENARIOS) {
		const figures = await seedsOf(base, seeds, policy);
		const shape = `${base.processes} × ${base.area === 'data' ? 'data sources' : 'email'}${base.executions ? `, ${base.executions} executions each` : ''}, start within ${base.startSpreadMs / 1000} s${base.stalls ? ', stalls' : ''}`;
		console.log(
			`| ${shape} | ${figures.requests} | ${percent(figures.refused)} (${percent(figures.worstRefused)}) | ${percent(figures.pace)} (${percent(figures.worstPace)}) | ${figures.longestRefusalRun}, ${figures.checkedRun}, ${figures.alikeRun} | run ≤ ${GOALS.refusalRun}: ${Math.max(figures.longestRefusalRun, figures.checkedRun) <= GOALS.refusalRun && !figures.failed ? 'MET' : 'NOT MET'} |`,
		);
	}
}
