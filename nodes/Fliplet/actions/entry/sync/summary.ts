import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { PlannedCommit } from './chunks';
import type { SyncMode, SyncPlan } from './diff';
import { insertedEntryId } from './entryIds';
import type { PlanOutcome, Recovered } from './sendPlan';
import type { Repair } from './repairDuplicates';

export const RERUN_IS_SAFE =
	'Nothing already in the data source was lost, and re-running Sync is safe: it reads the data source again and only sends what still differs, so rows that landed (or may have) are not duplicated, and a key it finds on several entries keeps only one.';

const NO_IDS_NOTE =
	'Fliplet did not return the id of this new entry (no clientIds in the commit response); read the data source to get it.';

/** Why keys may be doubled after the run (see LateLandings), beside the list of them. */
export const MAY_BE_DOUBLED_NOTE =
	'The commits of these rows failed after being sent (a timeout, a lost connection or a gateway error) and were sent again once a read found their keys absent. The first send may still be running on the server and store them after this run, leaving each of these keys on two entries: run Sync again with the same input a few minutes later, and it keeps one entry per key.';

const MAY_HAVE_LANDED_NOTE =
	'The commit of this row failed after being sent, so whether it landed is unknown. Run Sync again: it finds the row if it landed and sends it if not.';

interface Counts {
	inserted: number;
	updated: number;
	deleted: number;
}

function countOf(commits: PlannedCommit[]): Counts {
	const counts = { inserted: 0, updated: 0, deleted: 0 };
	for (const commit of commits) {
		counts.inserted += commit.inserts.length;
		counts.updated += commit.updates.length;
		counts.deleted += commit.deletes.length;
	}
	return counts;
}

/** "1–2, 4 and 6" for the 0-based places 0, 1, 3 and 5 (each place once, in order). */
function placesText(given: number[]): string {
	const places = [...new Set(given)].sort((a, b) => a - b);
	const runs: string[] = [];
	for (let start = 0; start < places.length; ) {
		let end = start;
		while (end + 1 < places.length && places[end + 1] === places[end] + 1) end++;
		runs.push(end === start ? `${places[start] + 1}` : `${places[start] + 1}–${places[end] + 1}`);
		start = end + 1;
	}
	return runs.length > 1 ? `${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1]}` : runs[0];
}

/** "Commits 1–2 of 5 landed (2 inserted, 0 updated, 0 deleted)", with `verb` for "landed". */
function commitsText(places: number[], commits: PlannedCommit[], total: number, verb: string) {
	const { inserted, updated, deleted } = countOf(commits);
	const which = `${new Set(places).size === 1 ? 'Commit' : 'Commits'} ${placesText(places)}`;
	return `${which} of ${total} ${verb} (${inserted} inserted, ${updated} updated, ${deleted} deleted)`;
}

/**
 * "Commits 1–2 of 5 landed (2 inserted, …)" for a failure part-way; commits that were on their way
 * when one failed may have landed after it: "Commits 1 and 3 of 5 landed". Commits whose answer was
 * lost are told apart: "Commit 4 of 5 may have landed (…)".
 */
export function landedText(outcome: PlanOutcome, total: number): string {
	const { landed, landedAt, unknown, unknownAt } = outcome;
	const parts: string[] = [];
	if (landedAt.length) parts.push(commitsText(landedAt, landed, total, 'landed'));
	if (unknownAt.length) {
		const one = new Set(unknownAt).size === 1;
		parts.push(
			`${commitsText(unknownAt, unknown, total, 'may have landed')}: ${one ? 'it' : 'they'} failed after being sent (a server error, a timeout or a lost answer), which can happen after the server stored ${one ? 'it' : 'them'}`,
		);
	}
	return parts.length ? parts.join('. ') : `None of the ${total} commits had landed`;
}

/** What the reads of lost commits did, when there were any: "Sync read the keys of …". */
export function recoveredText({ recovered }: PlanOutcome): string {
	if (!recovered.commits) return '';
	const { commits, rowsFound, rowsResent } = recovered;
	return `Sync read the keys of ${commits} commit${commits === 1 ? '' : 's'} whose answer was lost, found ${rowsFound} of their rows stored and sent ${rowsResent} again.`;
}

export interface SummaryInput {
	plan: SyncPlan;
	commits: PlannedCommit[];
	/** Undefined for a dry run: nothing was sent. */
	outcome?: PlanOutcome;
	mode: SyncMode;
	requests: number;
	itemCount: number;
	outputRows: boolean;
	/** Duplicates of newly inserted keys removed after inserting (undefined for a dry run). */
	repair?: Repair;
	/** Rows flagged for deletion whose key had no entry, when a delete flag column is set. */
	flaggedAbsent?: number;
	/** Rows whose key had no entry, in Only Update Existing mode. */
	notFound?: number;
	/** Inserted rows whose key may be on two entries once a commit still held lands (item order). */
	mayBeDoubled?: number[];
}

const allItems = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));

/** `{commits, inserted, updated, deleted}` of the commits whose answer was lost. */
function unknownCounts(outcome: PlanOutcome): IDataObject {
	return { commits: new Set(outcome.unknownAt).size, ...countOf(outcome.unknown) };
}

/** What reads after lost answers did, of the plan's commits and of the repair's delete. */
function recoveredCounts({ outcome, repair }: SummaryInput): Recovered {
	const total = { commits: 0, rowsFound: 0, rowsResent: 0 };
	for (const part of [outcome?.recovered, repair?.recovered]) {
		if (!part) continue;
		total.commits += part.commits;
		total.rowsFound += part.rowsFound;
		total.rowsResent += part.rowsResent;
	}
	return total;
}

/** The summary's `mayBeDoubled`: how many rows, their keys and entries, and what to do. */
function doubledKeys(input: SummaryInput, items: number[]): IDataObject {
	return {
		rows: items.length,
		keys: items.map((item) => ({
			key: input.plan.keys[item] ?? null,
			id: insertedEntryId(input, item) ?? null,
		})),
		note: MAY_BE_DOUBLED_NOTE,
	};
}

/**
 * The summary item (paired with every input item), then, when asked, one item per changed row
 * (paired with its input item; deleted entries have none, so they pair with all), naming the entry
 * that holds the row at the end of the run (see insertedEntryId). After a failure,
 * the summary counts the rows of the commits whose answer was lost apart (`mayHaveLanded`), and
 * their row items say so.
 */
export function buildOutput(input: SummaryInput, failure?: IDataObject): INodeExecutionData[] {
	const { plan, commits, outcome } = input;
	const done = outcome ? outcome.landed : commits;
	const counts = countOf(done);
	const summary: IDataObject = {
		...counts,
		unchanged: plan.unchanged,
		duplicatesRemoved: input.repair?.removed ?? 0,
		...(input.flaggedAbsent === undefined ? {} : { flaggedAbsent: input.flaggedAbsent }),
		...(input.notFound === undefined ? {} : { notFound: input.notFound }),
		skipped: plan.skipped as unknown as IDataObject[],
		requests: input.requests,
		commits: outcome ? outcome.landed.length : 0,
		recovered: recoveredCounts(input) as unknown as IDataObject,
		mode: input.mode,
		dryRun: !outcome,
		...(input.mayBeDoubled?.length ? { mayBeDoubled: doubledKeys(input, input.mayBeDoubled) } : {}),
		// Only a run that sent something can fail.
		...(failure ? { mayHaveLanded: unknownCounts(outcome!) } : {}),
		...(failure ?? {}),
	};
	// One shared list: n8n stores execution data with shared references kept, so pairing many
	// deleted-entry items with every input item costs one list, not one per item.
	const everyItem = allItems(input.itemCount);
	const output: INodeExecutionData[] = [{ json: summary, pairedItem: everyItem }];
	if (!input.outputRows) return output;

	const doubled = new Set(input.mayBeDoubled);
	const rowItems = (commit: PlannedCommit, unknown: boolean) => {
		const mark = unknown ? { mayHaveLanded: true } : {};
		for (const row of commit.updates) {
			output.push({
				json: { action: 'update', id: row.id, key: row.key, data: row.data, ...mark },
				pairedItem: { item: row.itemIndex },
			});
		}
		for (const itemIndex of commit.inserts) {
			const id = insertedEntryId(input, itemIndex);
			const key = plan.keys[itemIndex];
			const json: IDataObject = {
				action: 'insert',
				id: id ?? null,
				key,
				data: plan.rows[itemIndex],
				...mark,
				...(doubled.has(itemIndex) ? { mayBeDoubled: true } : {}),
			};
			if (id === undefined) {
				json.idNote = unknown
					? MAY_HAVE_LANDED_NOTE
					: outcome
						? NO_IDS_NOTE
						: 'Dry run: nothing was sent.';
			}
			output.push({ json, pairedItem: { item: itemIndex } });
		}
		for (const row of commit.deletes) {
			output.push({
				json: { action: 'delete', id: row.id, key: row.key, ...mark },
				pairedItem: everyItem,
			});
		}
	};
	for (const commit of done) rowItems(commit, false);
	for (const commit of outcome?.unknown ?? []) rowItems(commit, true);
	return output;
}
