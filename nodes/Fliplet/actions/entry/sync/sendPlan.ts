import type { IExecuteFunctions } from 'n8n-workflow';

import type { PlannedCommit } from './chunks';
import { LateLandings } from './lateLandings';
import { recoverUnknown, rowCount, type RecoveryScope } from './recoverUnknown';
import { sendCommits, type CommitOutcome } from './sendCommits';

/** How many times a run reads what lost commits stored and sends the rest (a re-send may be lost too). */
export const RECOVERY_ROUNDS = 3;

export interface Recovered {
	/** Commits whose answer was lost and whose keys were read to see what they stored. */
	commits: number;
	/** Their rows found stored as sent. */
	rowsFound: number;
	/** Their rows sent again (not stored, or stored otherwise). */
	rowsResent: number;
}

/**
 * The outcome of a plan's commits, those sent again included: `landed` and `unknown` are placed at
 * the plan's commit they carry rows of (a commit sent again, or the part of a lost commit found
 * stored, keeps its commit's place); `failure` names the commit that stopped the run.
 */
export interface PlanOutcome extends Omit<CommitOutcome, 'sent' | 'failedAt'> {
	failure?: CommitOutcome['failure'] & { commit: PlannedCommit };
	recovered: Recovered;
	/** Rows whose key the reads of lost commits found on several entries. */
	shared: number[];
	/** Rows of Only Update Existing whose entry another writer deleted before it was updated. */
	vanished: number[];
	/** Why what the lost commits stored could not be read, when that stopped the run. */
	checkFailure?: Error;
	/** The inserts of unknown outcome, and what may still land of them (see LateLandings). */
	lateLandings: LateLandings;
}

interface Placed {
	commit: PlannedCommit;
	place: number;
}

/**
 * Sends the plan's commits (see sendCommits). A commit whose answer was lost does not stop the
 * run: once the commits on their way are answered, the keys of the lost ones are read (see
 * recoverUnknown), their rows found stored count as landed, and what was not stored is sent
 * again, before the commits not sent yet; at most RECOVERY_ROUNDS times. The run stops, as
 * before, at a commit the API refused, at a body that could not be sent, when the read of the
 * lost commits' keys fails, or after the last round: the outcome then tells what landed, what
 * may have and (by leaving them out) what did not.
 */
export async function sendPlan(
	this: IExecuteFunctions,
	scope: RecoveryScope,
	commits: PlannedCommit[],
): Promise<PlanOutcome> {
	const { target, plan, settings, counter } = scope;
	const landed: Placed[] = [];
	const unknown: Placed[] = [];
	const outcome: PlanOutcome = {
		landed: [],
		landedAt: [],
		unknown: [],
		unknownAt: [],
		newIds: new Map(),
		recovered: { commits: 0, rowsFound: 0, rowsResent: 0 },
		shared: [],
		vanished: [],
		lateLandings: new LateLandings(),
	};
	const { lateLandings } = outcome;
	let queue: Placed[] = commits.map((commit, place) => ({ commit, place }));
	for (let round = 0; queue.length; round++) {
		const sent = await sendCommits.call(
			this,
			target,
			queue.map((placed) => placed.commit),
			plan.rows,
			settings,
			counter,
		);
		landed.push(...sent.landedAt.map((at) => queue[at]));
		for (const at of sent.landedAt) lateLandings.landed(queue[at].commit);
		for (const [item, id] of sent.newIds) outcome.newIds.set(item, id);
		if (!sent.failure) break;
		const lost = sent.unknownAt.map((at) => queue[at]);
		for (const { commit } of lost) lateLandings.lost(commit);
		const stop = (checkFailure?: Error) => {
			const { index, error } = sent.failure!;
			unknown.push(...lost);
			outcome.failure = { index: queue[index].place, commit: queue[index].commit, error };
			outcome.checkFailure = checkFailure;
		};
		const refused = sent.failedAt.some((at) => !sent.unknownAt.includes(at));
		if (refused || round >= RECOVERY_ROUNDS) {
			stop();
			break;
		}
		let recovery;
		try {
			recovery = await recoverUnknown.call(
				this,
				scope,
				lost.map((placed) => placed.commit),
			);
		} catch (error) {
			stop(error as Error);
			break;
		}
		for (const [item, id] of recovery.newIds) outcome.newIds.set(item, id);
		outcome.shared.push(...recovery.shared);
		outcome.vanished.push(...recovery.vanished);
		const again: Placed[] = [];
		recovery.commits.forEach(({ found, resend, absent }, index) => {
			const { place, commit } = lost[index];
			lateLandings.read(commit, found, absent);
			if (rowCount([found])) landed.push({ commit: found, place });
			again.push(...resend.map((commit) => ({ commit, place })));
			outcome.recovered.rowsFound += rowCount([found]);
			outcome.recovered.rowsResent += rowCount(resend);
		});
		outcome.recovered.commits += lost.length;
		// Sorted by place (stably): updates, then inserts, then deletes, as in the plan.
		queue = [...again, ...queue.slice(sent.sent)].sort((a, b) => a.place - b.place);
	}
	const inPlanOrder = (placed: Placed[]) => placed.sort((a, b) => a.place - b.place);
	outcome.landed = inPlanOrder(landed).map((placed) => placed.commit);
	outcome.landedAt = landed.map((placed) => placed.place);
	outcome.unknown = inPlanOrder(unknown).map((placed) => placed.commit);
	outcome.unknownAt = unknown.map((placed) => placed.place);
	return outcome;
}
