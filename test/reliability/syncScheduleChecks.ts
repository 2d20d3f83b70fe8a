/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
/**
 * The invariants the Sync fault-schedule property checks on one run, against the sandbox's log
 * of the run's requests and its stored data (test/reliability/syncSchedules.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunResult, SandboxRequest } from '../harness';
import {
	effectStayed,
	faultMet,
	leavesOutcomeUnknown,
	type ScheduledRequest,
} from '../harness/faultSchedule';

export type RequestClass = 'query' | 'commit';
export const classify = (request: SandboxRequest): RequestClass =>
	/\/commit$/.test(request.path) ? 'commit' : 'query';

/** A request of the log in one line, for failure reports. */
export const shortly = ({ request, fault }: ScheduledRequest) =>
	`${request.method} ${request.path} ${JSON.stringify(request.body)} → ${fault ?? request.status}`;

const inserts = (body: any): any[] =>
	(body.entries ?? []).filter((entry: any) => entry.id === undefined);

/** The values a query's `oneof` filters list, as text (the keys it reads). */
function keysRead(body: any): Set<string> {
	const filters: any[] = body?.where?.$filters ?? [];
	return new Set(
		filters.flatMap((filter) => (filter.condition === 'oneof' ? filter.value.map(String) : [])),
	);
}

/**
 * An insert is only sent for a key already sent in an insert of the same run when a read of that
 * key (a `oneof` query) came in between: Sync never re-sends an insert it has not seen absent.
 * A 429 is a refusal before any work: the transport sends that request again as it is.
 */
export function checkInsertsReadFirst(log: ScheduledRequest[]) {
	const sentUnread = new Set<string>();
	for (const scheduled of log) {
		const { request } = scheduled;
		if (classify(request) === 'query') {
			for (const key of keysRead(request.body)) sentUnread.delete(key);
			continue;
		}
		for (const entry of inserts(request.body)) {
			const key = String(entry.data.Email);
			if (sentUnread.has(key))
				throw new Error(`Insert of ${key} sent again unread: ${shortly(scheduled)}`);
			if (scheduled.fault !== 'rate-limited') sentUnread.add(key);
		}
	}
}

/** Whether any commit of the run met a fault, or an answer it could not use. */
export const commitMetFault = (log: ScheduledRequest[]) =>
	log.some((scheduled) => classify(scheduled.request) === 'commit' && faultMet(scheduled));

/** Whether an insert commit of the run was stored while its answer was lost. */
export const insertLostAfterStoring = (log: ScheduledRequest[]) =>
	log.some((scheduled) => {
		const fault = faultMet(scheduled);
		return (
			classify(scheduled.request) === 'commit' &&
			inserts(scheduled.request.body).length > 0 &&
			fault !== undefined &&
			leavesOutcomeUnknown(fault) &&
			effectStayed(scheduled)
		);
	});

export interface Expected {
	inserted: number;
	updated: number;
	deleted: number;
	unchanged: number;
}

/**
 * What a run with no other writer must report: exactly the diff of the data source it started
 * from with the input, whatever faults it met on the way.
 */
export function expectedCounts(
	existing: IDataObject[],
	noise: number,
	input: IDataObject[],
	mirror: boolean,
): Expected {
	const stored = new Map(existing.map((row) => [String(row.Email), row]));
	const counts = { inserted: 0, updated: 0, deleted: 0, unchanged: 0 };
	for (const row of input) {
		const old = stored.get(String(row.Email));
		if (!old) counts.inserted++;
		else if (old.N !== row.N) counts.updated++;
		else counts.unchanged++;
	}
	if (mirror) {
		const inputKeys = new Set(input.map((row) => String(row.Email)));
		counts.deleted = noise + existing.filter((row) => !inputKeys.has(String(row.Email))).length;
	}
	return counts;
}

/**
 * A run that succeeded with no other writer: its counts are the diff (and no duplicate was
 * removed but those a late landing made), each row item names the entry its key is stored on now (inserts found
 * after a lost answer included), and a recovery is reported only when a commit met a fault or,
 * in a run with the short timeout (`timesOut`), when an answer may have come too late.
 */
export function checkExactRun(
	result: RunResult,
	expected: Expected,
	stored: Array<{ id: number; data: IDataObject }>,
	log: ScheduledRequest[],
	timesOut: boolean,
	doubledBefore = 0,
) {
	const [summary, ...items] = result.json;
	expect(summary.error).toBeUndefined();
	expect(summary).toMatchObject(expected);
	// With no other writer, a key is on two entries only when a commit held by the server landed
	// beside its re-send, during the run or before it (`doubledBefore`): the check repairs it.
	const landedLate = log
		.filter(({ request, fault }) => fault === 'held' && request.landedLate)
		.flatMap(({ request }) => inserts(request.body)).length;
	expect(Number(summary.duplicatesRemoved)).toBeLessThanOrEqual(landedLate + doubledBefore);
	const recovered = summary.recovered as IDataObject;
	if (!commitMetFault(log) && !timesOut)
		expect(recovered).toEqual({ commits: 0, rowsFound: 0, rowsResent: 0 });
	// An insert commit stored while its answer was lost is never re-sent blindly: its keys are read.
	if (insertLostAfterStoring(log)) expect(Number(recovered.commits)).toBeGreaterThan(0);
	const idOf = new Map(stored.map((entry) => [String(entry.data.Email), entry.id]));
	for (const item of items) {
		if (item.action === 'delete') expect([...idOf.values()]).not.toContain(item.id);
		else expect({ item, id: item.id }).toEqual({ item, id: idOf.get(String(item.key)) });
	}
}

/**
 * A run that stopped (another writer made a commit fail, e.g. by deleting the entry it updates):
 * the error says where, and what may have landed is told only when something may have.
 */
export function checkStoppedRun(result: RunResult) {
	const [summary] = result.json;
	expect(summary.error).toEqual(expect.any(String));
	if (!('inserted' in summary)) return;
	const may = summary.mayHaveLanded as IDataObject | undefined;
	if (may && Number(may.commits)) expect(summary.description).toMatch(/may have landed/);
	if (summary.failedCommit !== undefined) {
		expect(summary.error).toMatch(new RegExp(`^Sync stopped at commit ${summary.failedCommit} of`));
	}
}
