/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Waits (backoff, 429) are shortened: the schedules check the order of events, not durations.
jest.mock('n8n-workflow', () =>
	require('../harness/fastWaits').withFastWaits(jest.requireActual('n8n-workflow')),
);

import * as fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { forgetRateWindows } from '../../nodes/Fliplet/transport/pacing';
import { DEFAULT_TIMEOUT_SECONDS } from '../../nodes/Fliplet/transport/timeouts';
import { WAIT_DIVISOR } from '../harness/fastWaits';
import { runNode, useSandbox, type RunResult, type SandboxRequest } from '../harness';
import {
	armSchedule,
	effectStayed,
	faultKind,
	faultMet,
	leavesOutcomeUnknown,
	RunFence,
	scheduleParameters,
	TIMEOUT_SECONDS,
	type ScheduledFault,
	type ScheduledRequest,
	type ScheduledWriter,
} from '../harness/faultSchedule';
import { dataSourceWith, storedEntries } from '../sync/fixtures';

// The sandbox's store, for the other writers acting between two of Sync's requests.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();

/** Sync schedules per run of the suite. */
const SCHEDULES = 160;
/** The keys rows and entries are drawn from: small, so inputs and entries share many. */
const KEYS = 12;

type RequestClass = 'query' | 'commit';
const classify = (request: SandboxRequest): RequestClass =>
	/\/commit$/.test(request.path) ? 'commit' : 'query';

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

const scheduleArbitrary = fc.record({
	existing: rowsOf(0, 8),
	// n8n runs no node without input items.
	input: rowsOf(1, 12),
	mode: fc.constantFrom('insertAndUpdate', 'mirror'),
	chunkSize: fc.integer({ min: 1, max: 5 }),
	outputRows: fc.boolean(),
	/** At most two faults, in the first run or the re-run. */
	faults: fc.array(
		fc.record({
			run: fc.constantFrom(1, 2),
			on: fc.constantFrom<RequestClass>('query', 'commit'),
			nth: fc.integer({ min: 1, max: 4 }),
			kind: faultKind(),
		}),
		{ maxLength: 2 },
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

type Claim = 'landed' | 'may have landed' | 'not landed';
type Kind = 'inserted' | 'updated' | 'deleted';

/** One commit as the sandbox saw it: its attempts (a retry re-sends the same body). */
interface CommitSeen {
	body: any;
	attempts: ScheduledRequest[];
	kind: Kind;
	rows: number;
}

const kindOf = (body: any): Kind =>
	body.delete?.length
		? 'deleted'
		: body.entries.some((entry: any) => entry.id !== undefined)
			? 'updated'
			: 'inserted';

/** A query of the check of the keys after the commits (the read has no `where` nor aggregate). */
const isCheck = ({ request }: ScheduledRequest) =>
	classify(request) === 'query' &&
	(request.body?.where !== undefined || request.body?.aggregate !== undefined);

/**
 * The run's commits, by body: those of the plan, sent before the check of the keys began (its
 * first query with a `where` or an aggregate; the read has neither), and the repair's deletes.
 */
function commitsSeen(log: ScheduledRequest[]): { plan: CommitSeen[]; repair: CommitSeen[] } {
	const plan = new Map<string, CommitSeen>();
	const repair = new Map<string, CommitSeen>();
	let checking = false;
	for (const scheduled of log) {
		const { body } = scheduled.request;
		if (classify(scheduled.request) === 'query') {
			checking ||= isCheck(scheduled);
			continue;
		}
		const commits = checking ? repair : plan;
		const text = JSON.stringify(body);
		const kind = kindOf(body);
		const seen: CommitSeen = commits.get(text) ?? {
			body,
			attempts: [],
			kind,
			rows: kind === 'deleted' ? body.delete.length : body.entries.length,
		};
		seen.attempts.push(scheduled);
		commits.set(text, seen);
	}
	return { plan: [...plan.values()], repair: [...repair.values()] };
}

/**
 * What the output may say of a commit, from the sandbox's side: landed if its last attempt was
 * answered with a success; may have landed if an attempt met a fault that leaves the outcome
 * unknown (or an update or delete failed after a retry); else not landed (the API refused it).
 * In a run with a short timeout, an answered attempt may also have reached the client too late.
 */
function allowedClaims(commit: CommitSeen, timesOut: boolean): Claim[] {
	const { attempts } = commit;
	const last = attempts[attempts.length - 1];
	const status = last.request.status ?? 0;
	if (faultMet(last) === undefined && status >= 200 && status < 300) {
		return timesOut ? ['landed', 'may have landed'] : ['landed'];
	}
	const unknown = attempts.some((attempt) => {
		const fault = faultMet(attempt);
		return fault !== undefined && leavesOutcomeUnknown(fault);
	});
	// The transport re-sends an update or a delete after a fault or after a 429 without saying
	// which: Sync counts one that failed after a retry as one that may have landed.
	const retried = commit.kind !== 'inserted' && attempts.length > 1;
	return unknown || retried ? ['may have landed'] : ['not landed'];
}

/** A request of the log in one line, for failure reports. */
const shortly = ({ request, fault }: ScheduledRequest) =>
	`${request.method} ${request.path} ${JSON.stringify(request.body)} → ${fault ?? request.status}`;

const zero = (): Record<Kind, number> => ({ inserted: 0, updated: 0, deleted: 0 });

/** The commit a row item of the output belongs to. */
function commitOfRow(commits: CommitSeen[], item: IDataObject): CommitSeen | undefined {
	return commits.find(({ body }) =>
		item.action === 'delete'
			? body.delete?.includes(item.id)
			: item.action === 'update'
				? body.entries.some((entry: any) => entry.id === item.id)
				: body.entries.some(
						(entry: any) => entry.id === undefined && entry.data.Email === item.key,
					),
	);
}

interface RunChecked {
	/** The run failed (or was refused): a re-run is due. */
	failed: boolean;
}

/**
 * What the output reports as landed, not landed or may have landed matches the sandbox's log:
 * commit by commit for the row items, and in the summary's counts.
 */
function checkClaims(result: RunResult, log: ScheduledRequest[], timesOut: boolean): RunChecked {
	const [summary, ...items] = result.json;
	if (!('inserted' in summary)) {
		// Refused as a whole (the read failed): nothing was written.
		expect(summary.error).toEqual(expect.any(String));
		const commits = log.filter((scheduled) => classify(scheduled.request) === 'commit');
		expect(commits.map(shortly)).toEqual([]);
		return { failed: true };
	}
	const { plan, repair } = commitsSeen(log);
	const claimed = { landed: zero(), may: zero() };
	const expected = { landed: zero(), may: zero(), either: zero() };
	let landedCommits = 0;
	for (const commit of plan) {
		const allowed = allowedClaims(commit, timesOut);
		if (allowed.includes('not landed')) {
			expect(commit.attempts.some(effectStayed)).toBe(false);
		} else if (allowed.length === 2) expected.either[commit.kind] += commit.rows;
		else if (allowed[0] === 'landed') expected.landed[commit.kind] += commit.rows;
		else expected.may[commit.kind] += commit.rows;
		if (allowed[0] === 'landed') landedCommits++;
	}
	const may = (summary.mayHaveLanded ?? { commits: 0, ...zero() }) as IDataObject;
	for (const kind of ['inserted', 'updated', 'deleted'] as const) {
		claimed.landed[kind] = Number(summary[kind]);
		claimed.may[kind] = Number(may[kind]);
		const all = expected.landed[kind] + expected.may[kind] + expected.either[kind];
		expect({ kind, reported: claimed.landed[kind] + claimed.may[kind] }).toEqual({
			kind,
			reported: all,
		});
		expect(claimed.landed[kind]).toBeGreaterThanOrEqual(expected.landed[kind]);
		expect(claimed.may[kind]).toBeGreaterThanOrEqual(expected.may[kind]);
	}
	if (!timesOut) expect(summary.commits).toBe(landedCommits);
	for (const item of items) {
		const commit = commitOfRow(plan, item);
		expect({ item, sent: commit !== undefined }).toEqual({ item, sent: true });
		const claim: Claim = item.mayHaveLanded ? 'may have landed' : 'landed';
		expect({ item, claim, allowed: allowedClaims(commit!, timesOut) }).toEqual({
			item,
			claim,
			allowed: expect.arrayContaining([claim]),
		});
	}
	if (summary.error === undefined) {
		expect(may.commits ?? 0).toBe(0);
	} else {
		if (Number(may.commits)) expect(summary.description).toMatch(/may have landed/);
		if (Number(may.commits) || summary.commits) expect(summary.description).not.toMatch(/None of/);
		if (summary.failedCommit !== undefined) {
			expect(summary.error).toMatch(
				new RegExp(`^Sync stopped at commit ${summary.failedCommit} of`),
			);
		}
	}
	if (summary.duplicateCheckError === undefined) {
		const removed = repair
			.filter((commit) => allowedClaims(commit, false)[0] === 'landed')
			.reduce((sum, commit) => sum + commit.rows, 0);
		expect(summary.duplicatesRemoved).toBe(removed);
	}
	return { failed: summary.error !== undefined };
}

/**
 * The keys of the insert commits that landed or may have are each on one entry at most once the
 * run's check of them is done: when another writer inserted one of them before the check began,
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
	const inserted = commitsSeen(log)
		.plan.filter(
			(commit) => commit.kind === 'inserted' && !allowedClaims(commit, true).includes('not landed'),
		)
		.flatMap((commit) => commit.body.entries.map((entry: any) => String(entry.data.Email)));
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

let schedulesRun = 0;

async function runSchedule(schedule: Schedule, fence: RunFence) {
	// The node's rate windows are shared by the process: schedules must not pace one another.
	forgetRateWindows();
	const scheduleId = ++schedulesRun;
	const id = await dataSourceWith(sandbox(), schedule.existing, `Schedule ${scheduleId}`);
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
		const faults: Array<ScheduledFault<RequestClass>> = schedule.faults.filter(
			(fault) => fault.run === run,
		);
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
		const checked = checkClaims(result, armed.log, armed.timesOut);
		checkTouchedOnlyInputKeys(armed.log, schedule, keyOfId);
		const writerSteps = run === 1 ? writers.map((writer) => writer.nth) : [];
		checkRepairedInRun(id, result, armed.log, writerSteps);
		learnKeys();
		return checked;
	};

	const first = await syncRun(1);
	if (!first.failed && !schedule.writers.length) checkConverged(id, schedule);
	// The re-run (with the schedule's faults of run 2), then, if that failed too, one without.
	const rerun = await syncRun(2);
	if (rerun.failed) {
		const last = await syncRun(3);
		expect(last.failed).toBe(false);
	}
	checkConverged(id, schedule);
	expect(fence.lateRequests().map((request) => shortly({ request }))).toEqual([]);
}

describe('Sync under random fault schedules (property)', () => {
	it(`${SCHEDULES} schedules: each run reports exactly what landed, the re-run converges, nothing is sent after the end`, async () => {
		const fence = new RunFence(sandbox());
		await fc.assert(
			fc.asyncProperty(scheduleArbitrary, async (schedule) => await runSchedule(schedule, fence)),
			scheduleParameters(SCHEDULES),
		);
		// A request of an ended run may still be on its way (a retry after a backoff).
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(fence.lateRequests().map((request) => shortly({ request }))).toEqual([]);
	}, 600_000);
});
