/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Delivery schedules for the Instant Trigger, drawn by fast-check: under each reading of the
// hook's templates (what they can name, how strictly each value compiles) and any choice of
// events, other writers insert, update (one entry, or several in a commit that runs hooks), delete and insert
// from a server whose clock lags; the hook calls Fliplet makes are held back and reach n8n in any
// order, one by one or together, some twice (replays), some never (lost). Invariants, over the
// whole schedule: no entry version starts two runs; every run's item is a version that existed,
// with its data, and one the chosen events take; every such version current when calls were
// handled was delivered by the end of their handling; and once a last call comes, every current
// one is delivered. A second property runs the calls in two n8n processes: nothing is lost there
// either (a version may run twice, see docs/triggers.md).
// A failure prints its seed and path and the smallest schedule fast-check shrank it to; replay it
// with INSTANT_SCHEDULE_SEED=<seed> INSTANT_SCHEDULE_PATH=<path>. INSTANT_SCHEDULE_RUNS sets how
// many schedules run (60 by default; a quarter as many for two processes).
import { isDeepStrictEqual } from 'node:util';

import fc from 'fast-check';

import {
	callSandbox,
	HOOK_TEMPLATE_READINGS,
	resetSandbox,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import type { HeldCall } from '../harness/webhook';
import {
	DEPARTMENTS,
	instantTriggerInAnotherProcess,
	instantTriggerKit,
	versionOf,
} from './instantTriggerKit';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');
const { hooksSettled } = require('../../sandbox/dataSources/hooks');

const sandbox = useSandbox();
const kit = instantTriggerKit(sandbox);
const RUNS = Number(process.env.INSTANT_SCHEDULE_RUNS ?? 60);

type Events = Array<'insert' | 'update'>;
type Write =
	| { kind: 'insert' }
	| { kind: 'update'; pick: number }
	| { kind: 'commit'; inserts: number; updates: number[] }
	| { kind: 'delete'; pick: number }
	| { kind: 'laggingInsert'; lagMs: number }
	| { kind: 'tick'; ms: number };
/** Held calls handed on: `picks` index the calls held so far (a call picked twice is replayed). */
type Delivery = { kind: 'deliver'; picks: number[]; together: boolean; process: number };

const writeArb: fc.Arbitrary<Write> = fc.oneof(
	{ weight: 3, arbitrary: fc.constant({ kind: 'insert' as const }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat() }) },
	fc.record({
		kind: fc.constant('commit' as const),
		inserts: fc.integer({ min: 0, max: 2 }),
		updates: fc.array(fc.nat(), { maxLength: 2 }),
	}),
	fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
	// Within the look-back: later than that is history by design.
	fc.record({
		kind: fc.constant('laggingInsert' as const),
		lagMs: fc.integer({ min: 1, max: 30_000 }),
	}),
	fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 90_000 }) }),
);

const deliveryArb = (processes: number): fc.Arbitrary<Delivery> =>
	fc.record({
		kind: fc.constant('deliver' as const),
		picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
		together: fc.boolean(),
		process: fc.integer({ min: 0, max: processes - 1 }),
	});

const scheduleArb = (processes: number) =>
	fc.record({
		readings: fc.constantFrom(...HOOK_TEMPLATE_READINGS),
		events: fc.constantFrom<Events>(['insert'], ['update'], ['insert', 'update']),
		steps: fc.array(
			fc.oneof(
				{
					weight: 3,
					arbitrary: fc.record({ kind: fc.constant('write' as const), write: writeArb }),
				},
				{ weight: 2, arbitrary: deliveryArb(processes) },
			),
			{ minLength: 1, maxLength: 12 },
		),
	});

type Schedule = ReturnType<typeof scheduleArb> extends fc.Arbitrary<infer T> ? T : never;

/** The world the schedule writes in: Departments, a clock it moves, and every version it made. */
class World {
	clock = Date.parse('2026-10-05T08:00:00.000Z');
	/**
	 * Every version that was current at some point (by the events' time field), with each data it
	 * had: by `createdAt`, one version's data changes with each update.
	 */
	readonly versions = new Map<string, unknown[]>();

	constructor(private readonly field: 'createdAt' | 'updatedAt') {
		sandbox().state.now = () => this.clock;
	}

	entries(): Array<Record<string, any>> {
		return store.entriesOf(sandbox().state, DEPARTMENTS);
	}

	/** Versions current now that the chosen events take. */
	current(taken: (entry: Record<string, any>) => boolean): Set<string> {
		return new Set(
			this.entries()
				.filter(taken)
				.map((entry) => versionOf(entry, this.field)),
		);
	}

	record(): void {
		for (const entry of this.entries()) {
			const version = versionOf(entry, this.field);
			this.versions.set(version, [...(this.versions.get(version) ?? []), entry.data]);
		}
	}

	/** Whether `entry` is a version that existed, with data it had. */
	existed(entry: Record<string, any>): boolean {
		const seen = this.versions.get(versionOf(entry, this.field)) ?? [];
		return seen.some((data) => isDeepStrictEqual(data, entry.data));
	}

	private async send(method: string, path: string, body?: unknown) {
		const response = await callSandbox(sandbox(), method, path, body, TOKENS.org);
		expect(response.status).toBe(200);
	}

	async apply(write: Write): Promise<void> {
		// Every write happens at a time of its own, so each change is a new version.
		this.clock += 1;
		const entries = this.entries();
		const data = `/v1/data-sources/${DEPARTMENTS}/data`;
		const pick = (n: number) => entries[n % entries.length];
		if (write.kind === 'tick') this.clock += write.ms;
		else if (write.kind === 'insert') await this.send('PUT', data, { Name: `N${this.clock}` });
		else if (write.kind === 'laggingInsert') {
			this.clock -= write.lagMs;
			await this.send('PUT', data, { Name: `L${this.clock}` });
			this.clock += write.lagMs;
		} else if (write.kind === 'update' && entries.length) {
			await this.send('PUT', `${data}/${pick(write.pick).id}`, { Name: `U${this.clock}` });
		} else if (write.kind === 'delete' && entries.length) {
			await this.send('DELETE', `${data}/${pick(write.pick).id}`);
		} else if (write.kind === 'commit' && write.inserts + write.updates.length) {
			const ids = [...new Set(entries.length ? write.updates.map((n) => pick(n).id) : [])];
			await this.send('POST', `/v1/data-sources/${DEPARTMENTS}/commit`, {
				append: true,
				returnEntries: false,
				runHooks: ['insert', 'update'],
				entries: [
					...ids.map((id) => ({ id, data: { Name: `C${this.clock}` } })),
					...Array.from({ length: write.inserts }, (_, n) => ({
						data: { Name: `C${this.clock}.${n}` },
					})),
				],
			});
		}
		await hooksSettled(sandbox().state);
		this.record();
	}
}

async function runSchedule({ readings, events, steps }: Schedule, processes: number) {
	resetSandbox(sandbox());
	setSandboxReadings(sandbox(), readings);
	const field = events.includes('update') ? 'updatedAt' : 'createdAt';
	const world = new World(field);
	const others = Array.from({ length: processes - 1 }, () => instantTriggerInAnotherProcess());
	const host = await kit.start(events, others);
	try {
		await host.publish();
		host.holdCalls();
		// What the chosen events take: with "Entry Updated" alone, an entry changed since its insert.
		const taken = (entry: Record<string, any>) =>
			events.includes('insert') || Date.parse(entry.updatedAt) !== Date.parse(entry.createdAt);
		const history = world.current(() => true);
		const missed: string[] = [];
		const handOn = async (calls: HeldCall[], options: { together: boolean; process: number }) => {
			const current = world.current(taken);
			await host.deliver(calls, options);
			// Nothing is written while calls are handled: what was current is delivered by now.
			const delivered = new Set(kit.deliveredVersions(field));
			missed.push(...[...current].filter((v) => !delivered.has(v) && !history.has(v)));
		};
		for (const step of steps) {
			if (step.kind === 'write') await world.apply(step.write);
			else if (host.held.length) {
				await handOn(
					step.picks.map((n) => host.held[n % host.held.length]),
					step,
				);
			}
		}
		// The writers stop; one more call comes (a replay, or any signed call): it catches up.
		const last = host.held[0] ?? {
			headers: kit.signed(),
			body: { dataSourceId: String(DEPARTMENTS) },
		};
		await handOn([last], { together: false, process: 0 });

		const delivered = kit.deliveredVersions(field);
		const repeated = delivered.filter((version, index) => delivered.indexOf(version) !== index);
		if (processes === 1) expect(repeated).toEqual([]);
		const wrong = kit
			.deliveredEntries()
			.filter(
				(entry) => !taken(entry) || history.has(versionOf(entry, field)) || !world.existed(entry),
			);
		expect(wrong).toEqual([]);
		expect([...new Set(missed)]).toEqual([]);
		expect(host.executions.filter((execution) => execution.status !== 'success')).toEqual([]);
	} finally {
		await kit.stop();
	}
}

function assertSchedules(processes: number, runs: number) {
	const seed = process.env.INSTANT_SCHEDULE_SEED;
	return fc.assert(
		fc.asyncProperty(scheduleArb(processes), (schedule) => runSchedule(schedule, processes)),
		{
			numRuns: runs,
			...(seed ? { seed: Number(seed), path: process.env.INSTANT_SCHEDULE_PATH } : {}),
		},
	);
}

describe('Fliplet Instant Trigger under delivery schedules', () => {
	it(`starts one run per entry version, whatever arrives when (${RUNS} schedules)`, async () => {
		await assertSchedules(1, RUNS);
	}, 600_000);

	it(`loses no entry version when two n8n processes handle the calls (${Math.ceil(RUNS / 4)} schedules)`, async () => {
		await assertSchedules(2, Math.ceil(RUNS / 4));
	}, 600_000);
});
