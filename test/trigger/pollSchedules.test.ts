/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Fault schedules for the polling trigger ("New or Updated Data Source Entry"), drawn by
// fast-check: other writers between polls and between the pages of a poll (inserts, edits,
// deletes, inserts from a server whose clock lags, commits that stamp their rows when they start
// and land later), and a fault on a random page request of a poll (429, 5xx before or after the
// server read, a dropped connection, a body cut mid-way). Invariants, over the whole sequence of
// polls: no entry version is delivered twice; every delivery is a version that really existed,
// with its data; every version that stayed current through a poll that read to the end is
// delivered; and once the writers stop, every current version is delivered.
// A failure prints its seed and path and the smallest schedule fast-check shrank it to; replay it
// with TRIGGER_SCHEDULE_SEED=<seed> TRIGGER_SCHEDULE_PATH=<path>. TRIGGER_SCHEDULE_RUNS sets how
// many schedules run (100 by default).
import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';

import {
	faultNthRequest,
	resetSandbox,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type SandboxFault,
} from '../harness';
import { runPoll } from '../harness/poll';
import { LOOK_BACK_MS } from '../../nodes/FlipletTrigger/lookBack';
import { DATA_SOURCE, ScheduleWorld, versionOf, type Write } from './pollScheduleWorld';

const sandbox = useSandbox();
const RUNS = Number(process.env.TRIGGER_SCHEDULE_RUNS ?? 100);

type PageFault = { at: number; fault: SandboxFault };
type Step =
	| { kind: 'write'; write: Write }
	| { kind: 'poll'; max: number; fault?: PageFault; between?: { at: number; write: Write } };

const writeArb: fc.Arbitrary<Write> = fc.oneof(
	fc.record({ kind: fc.constant('insert' as const), count: fc.integer({ min: 1, max: 3 }) }),
	fc.record({ kind: fc.constant('edit' as const), pick: fc.nat() }),
	fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
	fc.record({
		kind: fc.constant('laggingInsert' as const),
		lagMs: fc.integer({ min: 1, max: 2000 }),
	}),
	fc.record({
		kind: fc.constant('commitStart' as const),
		inserts: fc.integer({ min: 0, max: 2 }),
		edits: fc.array(fc.nat(), { maxLength: 2 }),
	}),
	fc.record({ kind: fc.constant('commitEnd' as const), pick: fc.nat() }),
	// Ticks stay short: a commit open for the whole schedule lands well within the look-back.
	fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 3000 }) }),
);

const at = fc.integer({ min: 1, max: 3 });
/** A 429 whose window is already over: the node waits its shortest wait and asks again. */
const RATE_LIMITED = { message: 'Too many requests', nextValidRequestDate: '2026-01-01T00:00:00Z' };
const pageFault: fc.Arbitrary<SandboxFault> = fc.oneof(
	fc.constant({ mode: 'status-before' as const, status: 429, body: RATE_LIMITED }),
	fc.record({
		mode: fc.constantFrom('status-before' as const, 'status-after' as const),
		status: fc.constantFrom(500, 502, 503),
	}),
	fc.record({ mode: fc.constantFrom('drop-before' as const, 'drop-after' as const) }),
	fc.constant({ mode: 'cut-after' as const }),
);
/** Most polls meet no fault; one that does meets it on its first, second or third page request. */
const faultArb: fc.Arbitrary<PageFault | undefined> = fc.oneof(
	{ weight: 7, arbitrary: fc.constant(undefined) },
	{ weight: 2, arbitrary: fc.record({ at, fault: pageFault }) },
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('write' as const), write: writeArb }) },
	{
		weight: 2,
		arbitrary: fc.record(
			{
				kind: fc.constant('poll' as const),
				max: fc.constantFrom(2, 3, 1000),
				fault: faultArb,
				between: fc.record({ at, write: writeArb }),
			},
			{ requiredKeys: ['kind', 'max'] },
		),
	},
);

const scheduleArb = fc.record({
	// A catch-up: more new entries than one page holds (500), read while another writer and a
	// fault strike between its pages; then the clock moves past the look-back.
	catchUp: fc.option(
		fc.record({
			count: fc.integer({ min: 480, max: 560 }),
			spread: fc.boolean(),
			between: fc.record({ at: fc.integer({ min: 2, max: 3 }), write: writeArb }),
			fault: faultArb,
		}),
		{ nil: undefined, freq: 3 },
	),
	steps: fc.array(stepArb, { minLength: 1, maxLength: 8 }),
});

interface PollOutcome {
	drained: boolean;
	/** Versions current both when the poll started and when it ended. */
	stable: string[];
}

type Schedule = typeof scheduleArb extends fc.Arbitrary<infer T> ? T : never;

async function runSchedule({ catchUp, steps }: Schedule) {
	resetSandbox(sandbox());
	const world = new ScheduleWorld(sandbox());
	const delivered: string[] = [];
	const wrong: string[] = [];
	const outcomes: PollOutcome[] = [];
	let staticData: Record<string, any> | undefined;
	const poll = async (max: number, fault?: PageFault, between?: { at: number; write: Write }) => {
		const before = world.current();
		const page = { method: 'POST', path: /\/data\/query$/ };
		const disarm = fault
			? faultNthRequest(sandbox(), page, fault.at, fault.fault)
			: () => undefined;
		let open = true;
		if (between) {
			sandbox().beforeHandling({
				path: '/data/query$',
				nth: between.at,
				run: async () => {
					if (open) await world.apply(between.write);
				},
			});
		}
		const result = await runPoll({
			parameters: {
				event: 'newOrUpdatedEntry',
				dataSource: { __rl: true, mode: 'id', value: String(DATA_SOURCE) },
				maxEventsPerPoll: max,
			} as never,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			staticData,
			mode: 'trigger',
		});
		open = false;
		disarm();
		staticData = result.staticData;
		const items = result.items ?? [];
		for (const item of items) {
			const version = versionOf(item.json as any);
			delivered.push(version);
			// Delivered as it was: a version that existed, with that version's data.
			if (!isDeepStrictEqual(item.json.data, world.versions.get(version))) wrong.push(version);
		}
		const after = world.current();
		outcomes.push({
			drained: !result.error && items.length < max,
			stable: [...before].filter((version) => after.has(version)),
		});
		return result;
	};
	// Activation: what is there now is history, never delivered.
	const history = world.current();
	expect((await poll(1000)).items).toBeNull();
	outcomes.length = 0;
	try {
		world.clock += 10_000;
		if (catchUp) {
			world.bulkInsert(catchUp.count, catchUp.spread);
			await poll(1000, catchUp.fault, catchUp.between);
			// What lands more than the look-back late is history by design: no commit stays open.
			await world.endCommits();
			await world.apply({ kind: 'tick', ms: LOOK_BACK_MS });
		}
		for (const step of steps) {
			if (step.kind === 'write') await world.apply(step.write);
			else await poll(step.max, step.fault, step.between);
		}
	} finally {
		await world.endCommits();
	}
	// The writers stop: polls without faults catch up.
	for (let n = 0; n < 4; n++) if (!(await poll(1000)).items) break;

	expect(wrong).toEqual([]);
	const repeated = delivered.filter((version, index) => delivered.indexOf(version) !== index);
	expect(repeated).toEqual([]);
	const all = new Set(delivered);
	const missed = outcomes
		.filter((outcome) => outcome.drained)
		.flatMap((outcome) => outcome.stable.filter((v) => !all.has(v) && !history.has(v)));
	expect([...new Set(missed)]).toEqual([]);
	expect(outcomes.at(-1)).toMatchObject({ drained: true });
}

describe('Fliplet Trigger under fault schedules', () => {
	it(`delivers every insert and edit once, whatever the interleaving (${RUNS} schedules)`, async () => {
		const seed = process.env.TRIGGER_SCHEDULE_SEED;
		await fc.assert(fc.asyncProperty(scheduleArb, runSchedule), {
			numRuns: RUNS,
			...(seed ? { seed: Number(seed), path: process.env.TRIGGER_SCHEDULE_PATH } : {}),
		});
	}, 600_000);
});
