import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { errorItem } from '../../../helpers/mapItems';
import { asNodeError } from '../../../helpers/nodeError';
import { planCommits } from './chunks';
import { lookUpColumnTypes } from './columnTypeLook';
import type { InputRows } from './diff';
import { explainCheckFailure, explainFailure, type FailedError } from './failureText';
import { refuseNotFound, vanishedErrors } from './notFound';
import { readAndDiff } from './readAndDiff';
import { refuseEmptying, refuseTooManyDeletes, refuseUnkeyed } from './refusals';
import { repairDuplicates, type Repair, type RepairScope } from './repairDuplicates';
import { rowResults, type RowResult, type RowResultsInput } from './rowResults';
import { sendPlan } from './sendPlan';
import type { SyncSettings } from './settings';
import { buildOutput } from './summary';
import type { ColumnTypes } from './typecast';

export interface SyncRunOptions {
	/**
	 * Also answer row by row (`SyncRun.rows`): the read then keeps the ids of the entries holding
	 * each row's key (8 bytes a row), so that unchanged rows name their entry too.
	 */
	rowResults?: boolean;
}

/** What a Sync run gives back. */
export interface SyncRun {
	/**
	 * Sync's output: the summary item (and, with Output Rows, one item per changed row), then one
	 * error item per row refused or not found, in item order.
	 */
	items: INodeExecutionData[];
	/** With `rowResults`: what happened to input item `i` is `rows[i]` (see RowResult). */
	rows?: RowResult[];
	/** With `rowResults`: the column types new values were written by (see planColumnTypes). */
	columnTypes?: ColumnTypes;
	/**
	 * With `rowResults`: input items folded into an earlier item of the same key (item → the item
	 * whose row, the fold of both, carries their write: see SyncPlan.foldedInto).
	 */
	foldedInto?: ReadonlyMap<number, number>;
	/**
	 * The failure the summary reports (a commit refused or lost, the check of the keys failed),
	 * when Continue On Fail kept it from being thrown: what landed is still in `rows`.
	 */
	error?: FailedError;
}

/**
 * The check of the keys after the commits (see repairDuplicates). Its failure is handed back, not
 * thrown, so that a commit's failure before it stays the error.
 */
async function checkKeys(
	this: IExecuteFunctions,
	scope: RepairScope,
	keys: number[][],
	sourceWasEmpty: boolean,
): Promise<{ repair: Repair } | { failure: NodeApiError | NodeOperationError }> {
	try {
		return { repair: await repairDuplicates.call(this, scope, keys, sourceWasEmpty) };
	} catch (error) {
		return { failure: asNodeError(this.getNode(), error, 0) };
	}
}

/** Error items (refused rows, rows not found) in item order, after the summary and row items. */
function withErrorItems(
	summary: INodeExecutionData[],
	errors: Map<number, NodeOperationError>,
): INodeExecutionData[] {
	const all = [...errors].sort(([a], [b]) => a - b);
	return [...summary, ...all.map(([itemIndex, error]) => errorItem(error, itemIndex))];
}

/**
 * Makes the data source `target` match `rows` (row `i` is input item `i`) as `settings` say: reads
 * it, refuses a run that cannot be right, sends the commits, reads what lost answers stored, checks
 * the keys it inserted and repairs duplicates (see docs/sync.md). Throws what stops the run; with
 * Continue On Fail, a failure after something was sent comes back in the summary (and `error`).
 */
export async function runSync(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	rows: InputRows,
	settings: SyncSettings,
	options: SyncRunOptions = {},
): Promise<SyncRun> {
	const counter = { requests: 0 };
	const read = await readAndDiff.call(this, target, rows, settings, counter, {
		rowEntries: options.rowResults,
	});
	const { plan, refused } = read;
	// Refused rows were emptied so they change nothing: they are not "skipped" for a missing key.
	plan.skipped = plan.skipped.filter((row) => !refused.has(row.itemIndex));
	refuseUnkeyed.call(this, rows, plan, settings, refused);
	const notFound = refuseNotFound.call(this, plan, settings);
	refuseEmptying.call(this, plan, settings);
	refuseTooManyDeletes.call(this, plan, settings);
	// A read that met no entry could not tell what types new spreadsheet text takes.
	if (!settings.dryRun)
		await lookUpColumnTypes.call(this, target, plan, read.sourceWasEmpty, counter);
	// Per-row results name every new entry: inserts then carry the `clientId` its id comes back by.
	const sending = options.rowResults ? { ...settings, outputRows: true } : settings;
	const commits = planCommits(plan, sending);
	// The commits hold the rows to insert from now on: a large first load does not keep their
	// indexes twice while it sends them.
	plan.inserts = [];
	const summaryInput = {
		plan,
		commits,
		mode: settings.mode,
		itemCount: rows.length,
		outputRows: settings.outputRows,
		...(settings.deleteColumn === undefined ? {} : { flaggedAbsent: plan.flaggedAbsent }),
		...(settings.mode === 'updateOnly' ? { notFound: plan.notFound.length } : {}),
	};
	// The summary (and row items), then one error item per refused or not found row.
	const answer = (
		summary: INodeExecutionData[],
		sent: Pick<RowResultsInput, 'outcome' | 'repair' | 'mayBeDoubled'> = {},
		vanished = new Map<number, NodeOperationError>(),
		error?: FailedError,
	): SyncRun => {
		const errors = new Map([...notFound, ...vanished]);
		const input: RowResultsInput = {
			...sent,
			itemCount: rows.length,
			plan,
			commits,
			deleteColumn: settings.deleteColumn,
			rowEntries: read.rowEntries,
			refused,
			notFound: errors,
		};
		return {
			items: withErrorItems(summary, new Map([...refused, ...errors])),
			...(options.rowResults
				? { rows: rowResults(input), columnTypes: plan.columnTypes, foldedInto: plan.foldedInto }
				: {}),
			...(error ? { error } : {}),
		};
	};
	if (settings.dryRun) return answer(buildOutput({ ...summaryInput, requests: counter.requests }));

	const scope = { target, plan, settings: sending, counter };
	const outcome = await sendPlan.call(this, scope, commits);
	// Even after a failure part-way, the keys that landed or may have are checked, so overlapping
	// runs converge; so are the keys the reads found on several entries, which a commit whose
	// answer was lost may have left behind, and those a lost insert may still store.
	const inserted = [...outcome.landed, ...outcome.unknown].map((commit) => commit.inserts);
	const insertedCount = inserted.reduce((sum, items) => sum + items.length, 0);
	const shared = [...plan.shared, ...outcome.shared, ...outcome.lateLandings.pendingRows()];
	// Without shared keys (the usual run) the commits' own lists of inserted rows are the lists:
	// none is copied (after filling an empty data source, the check only needs their count).
	const checked = shared.length ? [[...new Set([...inserted.flat(), ...shared])]] : inserted;
	const check = await checkKeys.call(this, scope, checked, read.sourceWasEmpty);
	const checkFailure = 'failure' in check ? check.failure : undefined;
	const repair = 'repair' in check ? check.repair : undefined;
	// A key found on fewer entries than a re-sent insert's sends may make may be doubled after the
	// run; when the check failed, it cannot tell.
	const entriesOf = (item: number) =>
		repair ? (repair.entriesOfKey.get(plan.keys[item]!)?.length ?? 1) : undefined;
	const mayBeDoubled = outcome.lateLandings.mayBeDoubled(entriesOf);
	const result = { ...summaryInput, outcome, repair, mayBeDoubled, requests: counter.requests };
	if (!outcome.failure && !checkFailure) {
		const summary = buildOutput(result);
		const { inserted: added, updated } = summary[0].json;
		const written = `The other rows were written (${String(added)} inserted, ${String(updated)} updated).`;
		const vanished = vanishedErrors.call(
			this,
			plan,
			outcome.vanished,
			written,
			settings.notFoundWords,
		);
		return answer(summary, { outcome, repair, mayBeDoubled: new Set(mayBeDoubled) }, vanished);
	}

	const error = outcome.failure
		? explainFailure(outcome, commits.length, checkFailure)
		: explainCheckFailure(checkFailure!, insertedCount);
	if (!this.continueOnFail()) throw error;
	const failure: IDataObject = {
		error: error.message,
		description: error.description ?? null,
		...(outcome.failure
			? { failedCommit: outcome.failure.index + 1, totalCommits: commits.length }
			: {}),
		...(checkFailure ? { duplicateCheckError: checkFailure.message } : {}),
	};
	// With Continue On Fail (else the run threw above), rows whose entry went are error items.
	const vanished = vanishedErrors.call(this, plan, outcome.vanished, '', settings.notFoundWords);
	const sent = { outcome, repair, mayBeDoubled: new Set(mayBeDoubled) };
	return answer(buildOutput(result, failure), sent, vanished, error);
}
