/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Waits (backoff, 429) are shortened: the schedules check the order of events, not durations.
jest.mock('n8n-workflow', () =>
	require('../harness/fastWaits').withFastWaits(jest.requireActual('n8n-workflow')),
);

import * as fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { readSizes } from '../../nodes/Fliplet/actions/entry/sync/readSizes';
import { forgetRateWindows } from '../../nodes/Fliplet/transport/pacing';
import { DEFAULT_TIMEOUT_SECONDS } from '../../nodes/Fliplet/transport/timeouts';
import { WAIT_DIVISOR } from '../harness/fastWaits';
import { runNode, useSandbox, type RunResult } from '../harness';
import {
	armSchedule,
	effectStayed,
	faultKind,
	leavesOutcomeUnknown,
	RunFence,
	scheduleParameters,
	TIMEOUT_SECONDS,
	type ScheduledFault,
	type ScheduledRequest,
	type ScheduledWriter,
} from '../harness/faultSchedule';
import { dataSourceWith, storedEntries } from '../sync/fixtures';
import {
	checkExactRun,
	checkInsertsReadFirst,
	checkStoppedRun,
	classify,
	expectedCounts,
	shortly,
	type RequestClass,
} from './syncScheduleChecks';

// The sandbox's store, for the other writers acting between two of Sync's requests.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();

/** Sync schedules per run of the suite. */
const SCHEDULES = 160;
/** The keys rows and entries are drawn from: small, so inputs and entries share many. */
const KEYS = 12;

const email = (key: number) => `k${key}@x.io`;
const rowsOf = (minLength: number, maxLength: number) =>
	fc
		.uniqueArray(fc.record({ key: fc.nat(KEYS - 1), n: fc.nat(3) }), {
			selector: (row) => row.key,
			minLength,
			maxLength,
		})
		.map((rows) => rows.map(({ key, n }): IDataObject => ({ Email: email(key), N: n })));

type WriterAction = 'insert-same-key' | 'delete' | 'update';
type LateLanding = 'before-resend' | 'before-check' | 'after-run';

const scheduleArbitrary = fc.record({
	existing: rowsOf(0, 8),
	/** Entries of keys no input has: the data source's size beyond the input's keys. */
	noise: fc.nat(16),
	// n8n runs no node without input items.
	input: rowsOf(1, 12),
	mode: fc.constantFrom('insertAndUpdate', 'mirror'),
	chunkSize: fc.integer({ min: 1, max: 5 }),
	outputRows: fc.boolean(),
	/**
	 * Sync's read sizes, scaled down so that tens of entries meet every read path: by key in one
	 * request or several (or never, with 0 keys per request), a full read of many pages, a full
	 * read given up for a targeted one.
	 */
	sizes: fc.record({
		page: fc.integer({ min: 3, max: 8 }),
		targetedKeys: fc.constantFrom(0, 1, 2, 3, 5, 12),
	}),
	/** At most three faults, in the first run or the re-run. */
	faults: fc.array(
		fc.record({
			run: fc.constantFrom(1, 2),
			on: fc.constantFrom<RequestClass>('query', 'commit'),
			nth: fc.integer({ min: 1, max: 6 }),
			kind: faultKind(),
		}),
		{ maxLength: 3 },
	),
	/**
	 * A commit of the first run held by the server and landed late: its answer is lost at once (a
	 * gateway's 504), and it is stored just before the first commit after the read of its keys (the
	 * re-send), just before the check of the keys after the commits, or after the run.
	 */
	lateLanding: fc.option(
		fc.record({
			nth: fc.integer({ min: 1, max: 4 }),
			lands: fc.constantFrom<LateLanding>('before-resend', 'before-check', 'after-run'),
		}),
		{ nil: undefined },
	),
	/** Other writers between two requests of the first run. */
	writers: fc.array(
		fc.record({
			nth: fc.integer({ min: 1, max: 6 }),
			action: fc.constantFrom<WriterAction>('insert-same-key', 'delete', 'update'),
			pick: fc.nat(20),
		}),
		{ maxLength: 2 },
	),
});

type Schedule = typeof scheduleArbitrary extends fc.Arbitrary<infer S> ? S : never;

/** The other writer's act on data source `id`; the key of each entry it inserts goes to `keyOfId`. */
function writerAct(
	schedule: Schedule,
	id: number,
	action: WriterAction,
	pick: number,
	keyOfId: Map<number, string>,
) {
	return (state: any) => {
		const entries = store.entriesOf(state, id);
		if (action === 'insert-same-key') {
			const { input } = schedule;
			const key = input.length ? String(input[pick % input.length].Email) : email(pick % KEYS);
			const dataSource = state.dataSources.find((ds: any) => ds.id === id);
			const entry = store.newEntry(state, dataSource, { Email: key, N: 100 + pick });
			keyOfId.set(entry.id, key);
			store.appendEntries(state, id, [entry]);
		} else if (entries.length && action === 'delete') {
			store.removeEntries(state, id, [entries[pick % entries.length].id]);
		} else if (entries.length) {
			const entry = entries[pick % entries.length];
			store.replaceEntry(state, id, { ...entry, data: { ...entry.data, N: 50 + pick } });
		}
	};
}

/** The check of the keys after the commits begins with its count (a query with an aggregate). */
const isCheck = ({ request }: ScheduledRequest) =>
	classify(request) === 'query' && request.body?.aggregate !== undefined;

/**
 * The keys the run's inserts stored are each on one entry at most once the run's check of them is
 * done: when another writer inserted one of them before the check began,
 * the run repaired it (a writer acting later is the re-run's to repair).
 */
function checkRepairedInRun(
	id: number,
	result: RunResult,
	log: ScheduledRequest[],
	writerSteps: number[],
) {
	const summary = result.json[0];
	if (!('inserted' in summary) || summary.duplicateCheckError !== undefined) return;
	const checkAt = log.findIndex(isCheck) + 1;
	if (!checkAt || writerSteps.some((nth) => nth > checkAt && nth <= log.length)) return;
	const inserted = log
		.filter((scheduled) => classify(scheduled.request) === 'commit' && effectStayed(scheduled))
		.flatMap(({ request }) => request.body.entries)
		.filter((entry: any) => entry.id === undefined)
		.map((entry: any) => String(entry.data.Email));
	const count = new Map<string, number>();
	for (const { data } of storedEntries(sandbox(), id)) {
		count.set(String(data.Email), (count.get(String(data.Email)) ?? 0) + 1);
	}
	expect(inserted.filter((key) => (count.get(key) ?? 0) > 1)).toEqual([]);
}

/** Sync never updates or deletes an entry whose key is not one of the input's (outside mirror). */
function checkTouchedOnlyInputKeys(
	log: ScheduledRequest[],
	schedule: Schedule,
	keyOfId: Map<number, string>,
) {
	if (schedule.mode === 'mirror') return;
	const inputKeys = new Set(schedule.input.map((row) => String(row.Email)));
	for (const { request } of log) {
		if (classify(request) !== 'commit') continue;
		const ids: number[] = [
			...(request.body.delete ?? []),
			...request.body.entries.filter((entry: any) => entry.id !== undefined).map((e: any) => e.id),
		];
		// An id never seen is an entry Sync itself inserted (and may have removed) in the run.
		const keys = ids.map((id) => keyOfId.get(id)).filter((key) => key !== undefined);
		expect(keys.filter((key) => !inputKeys.has(key!))).toEqual([]);
	}
}

/** Each input key on exactly one entry, holding the input's row (and, in mirror mode, nothing else). */
function checkConverged(id: number, schedule: Schedule) {
	const entries = storedEntries(sandbox(), id);
	const byKey = new Map<string, IDataObject[]>();
	for (const { data } of entries) {
		byKey.set(String(data.Email), [...(byKey.get(String(data.Email)) ?? []), data]);
	}
	const inputKeys = schedule.input.map((row) => String(row.Email));
	expect(inputKeys.map((key) => [key, byKey.get(key)])).toEqual(
		schedule.input.map((row) => [row.Email, [row]]),
	);
	if (schedule.mode === 'mirror') expect(entries).toHaveLength(schedule.input.length);
}

/**
 * Lands the commit a schedule holds at its point (see `lateLanding`): just before the handler of
 * the first commit after a read that came after the held one (the re-send), or of the check of
 * the keys (a query with an aggregation) after a commit that came after it. Whatever is still
 * held when the run ends lands after it (see landAfterRun).
 */
function landAt(lands: LateLanding) {
	if (lands === 'after-run') return;
	// Whether the held commit came yet, and what came after it.
	let held = false;
	let readSince = false;
	let commitSince = false;
	const arm = () =>
		sandbox().beforeHandling({
			run: async (_state, body) => {
				held ||= sandbox().held.length > 0;
				const commit = Array.isArray(body?.entries);
				const due =
					held &&
					(lands === 'before-resend'
						? commit && readSince
						: !commit && body?.aggregate !== undefined && commitSince);
				if (due) return void (await sandbox().landHeld());
				if (held && commit) commitSince = true;
				else if (held) readSince = true;
				arm();
			},
		});
	arm();
}

/**
 * After the first run: lands what is still held, and checks that every key it doubles was
 * reported in the summary's `mayBeDoubled`, and that only keys of insert commits whose outcome
 * stayed unknown are reported there.
 */
async function landAfterRun(
	id: number,
	result: RunResult,
	log: ScheduledRequest[],
): Promise<number> {
	const reported = ((result.json[0].mayBeDoubled as IDataObject | undefined)?.keys ?? []) as Array<{
		key: string;
		id: number | null;
	}>;
	const unknownInserts = new Set(
		log
			.filter(
				({ request, fault }) =>
					classify(request) === 'commit' && fault && leavesOutcomeUnknown(fault),
			)
			.flatMap(({ request }) => request.body.entries)
			.filter((entry: any) => entry.id === undefined)
			.map((entry: any) => String(entry.data.Email)),
	);
	expect(reported.map((entry) => entry.key).filter((key) => !unknownInserts.has(key))).toEqual([]);
	// Each key reported names an entry that holds it now.
	const stored = new Map(
		storedEntries(sandbox(), id).map((entry) => [entry.id, String(entry.data.Email)]),
	);
	for (const entry of reported) if (entry.id !== null) expect(stored.get(entry.id)).toBe(entry.key);
	await sandbox().landHeld();
	const counts = new Map<string, number>();
	for (const { data } of storedEntries(sandbox(), id))
		counts.set(String(data.Email), (counts.get(String(data.Email)) ?? 0) + 1);
	const doubled = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
	const told = new Set(reported.map((entry) => entry.key));
	expect(doubled.filter((key) => !told.has(key))).toEqual([]);
	return doubled.length;
}

let schedulesRun = 0;

/** Entries of keys no input row has, `count` of them. */
const noiseRows = (count: number) =>
	Array.from({ length: count }, (_, n): IDataObject => ({ Email: `noise${n}@y.io`, N: n }));

async function runSchedule(schedule: Schedule, fence: RunFence) {
	// The node's rate windows are shared by the process: schedules must not pace one another.
	forgetRateWindows();
	const scheduleId = ++schedulesRun;
	const stored = [...schedule.existing, ...noiseRows(schedule.noise)];
	const id = await dataSourceWith(sandbox(), stored, `Schedule ${scheduleId}`);
	const keyOfId = new Map<number, string>();
	const learnKeys = () => {
		for (const { id: entryId, data } of storedEntries(sandbox(), id))
			keyOfId.set(entryId, String(data.Email));
	};
	learnKeys();
	const writers: ScheduledWriter[] = schedule.writers.map(({ nth, action, pick }) => ({
		nth,
		act: writerAct(schedule, id, action, pick, keyOfId),
	}));

	const syncRun = async (run: number) => {
		const tag = `sync-${scheduleId}-${run}`;
		const held: Array<ScheduledFault<RequestClass>> =
			run === 1 && schedule.lateLanding
				? [{ on: 'commit', nth: schedule.lateLanding.nth, kind: 'held' }]
				: [];
		const faults: Array<ScheduledFault<RequestClass>> = [
			...held,
			...schedule.faults.filter((fault) => fault.run === run),
		];
		if (held.length) landAt(schedule.lateLanding!.lands);
		const armed = armSchedule(sandbox(), {
			tag,
			classify,
			faults,
			writers: run === 1 ? writers : [],
		});
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'sync',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				keyColumns: 'Email',
				syncMode: schedule.mode,
				allowEmpty: true,
				// The schedules delete any share of the entries: the default delete limits are off.
				maxDeleteShare: 100,
				syncOptions: { chunkSize: schedule.chunkSize, outputRows: schedule.outputRows },
			},
			input: schedule.input.map((json) => ({ json })),
			credentials: {
				// Waits are shortened, the request's deadline among them: its timeout is given in
				// shortened time too, so a timeout run waits TIMEOUT_SECONDS and others the default.
				flipletApi: fence.credential(
					tag,
					(armed.timesOut ? TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS.data) * WAIT_DIVISOR,
				),
			},
			continueOnFail: true,
		});
		fence.end(tag);
		armed.disarm();
		expect(result.error).toBeUndefined();
		checkInsertsReadFirst(armed.log);
		checkTouchedOnlyInputKeys(armed.log, schedule, keyOfId);
		const writerSteps = run === 1 ? writers.map((writer) => writer.nth) : [];
		checkRepairedInRun(id, result, armed.log, writerSteps);
		learnKeys();
		const { log, timesOut } = armed;
		return { result, log, timesOut, failed: result.json[0].error !== undefined };
	};

	const mirror = schedule.mode === 'mirror';
	const first = await syncRun(1);
	let doubled = 0;
	if (!schedule.writers.length) {
		// Faults alone never stop a run: lost commits are read and what they did not store is sent.
		const expected = expectedCounts(schedule.existing, schedule.noise, schedule.input, mirror);
		checkExactRun(first.result, expected, storedEntries(sandbox(), id), first.log, first.timesOut);
		checkConverged(id, schedule);
		// A commit that landed late is told: repaired in the run, or its keys reported.
		doubled = await landAfterRun(id, first.result, first.log);
	} else {
		if (first.failed) checkStoppedRun(first.result);
		await sandbox().landHeld();
	}
	// The re-run, with the schedule's faults of run 2 and no other writer: it ends well.
	const rerun = await syncRun(2);
	if (!schedule.writers.length) {
		// The keys a late landing doubled after the first run are repaired (mirror deletes them).
		const unchanged = {
			inserted: 0,
			updated: 0,
			deleted: mirror ? doubled : 0,
			unchanged: schedule.input.length,
		};
		const stored = storedEntries(sandbox(), id);
		checkExactRun(rerun.result, unchanged, stored, rerun.log, rerun.timesOut, doubled);
	} else expect(rerun.failed).toBe(false);
	checkConverged(id, schedule);
	expect(fence.lateRequests().map((request) => shortly({ request }))).toEqual([]);
}

/** Runs the schedule with Sync's read sizes scaled as it says, and puts them back. */
async function withReadSizes(schedule: Schedule, run: () => Promise<void>) {
	const saved = { ...readSizes };
	Object.assign(readSizes, schedule.sizes);
	try {
		await run();
	} finally {
		Object.assign(readSizes, saved);
	}
}

describe('Sync under random fault schedules (property)', () => {
	it(`${SCHEDULES} schedules: faults alone never stop a run, which ends with the input stored and reports it exactly; with other writers the re-run converges; nothing is sent after the end`, async () => {
		const fence = new RunFence(sandbox());
		await fc.assert(
			fc.asyncProperty(
				scheduleArbitrary,
				async (schedule) => await withReadSizes(schedule, () => runSchedule(schedule, fence)),
			),
			scheduleParameters(SCHEDULES),
		);
		// A request of an ended run may still be on its way (a retry after a backoff).
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(fence.lateRequests().map((request) => shortly({ request }))).toEqual([]);
	}, 600_000);
});
