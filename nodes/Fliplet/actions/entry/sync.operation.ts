import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { errorItem } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { planCommits } from './sync/chunks';
import { syncFields } from './sync/description';
import type { InputRows, SyncPlan } from './sync/diff';
import { refuseNotFound, vanishedErrors } from './sync/notFound';
import { readAndDiff } from './sync/readAndDiff';
import { repairDuplicates, type Repair, type RepairScope } from './sync/repairDuplicates';
import { sendPlan, type PlanOutcome } from './sync/sendPlan';
import { type SyncSettings, readSyncSettings } from './sync/settings';
import { buildOutput, landedText, recoveredText, RERUN_IS_SAFE } from './sync/summary';
import { typecastRow } from './sync/typecast';

const properties: INodeProperties[] = [dataSourceLocator(), ...syncFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['sync'] } },
	properties,
);

/**
 * Mirror never silently wipes the data source: deleting every entry needs "Allow Emptying", which
 * then also lets that run past the delete limits (it is the consent to lose every entry).
 */
function refuseEmptying(this: IExecuteFunctions, plan: SyncPlan, settings: SyncSettings): void {
	if (settings.mode !== 'mirror' || settings.allowEmpty) return;
	if (!plan.existingCount || plan.deletes.length < plan.existingCount) return;
	// Every entry goes, so no row matched one: the rows that would be written are all inserts.
	const usable = plan.inserts.length;
	throw new NodeOperationError(
		this.getNode(),
		`Mirror would delete all ${plan.existingCount} entries of the data source`,
		{
			itemIndex: 0,
			description: `${usable ? `None of the ${usable} input rows has the key of an existing entry` : `No input row has a usable key (${plan.skipped.length} skipped)`}. Check the key columns (their names are case-sensitive) and the input. If the data source really should be emptied or fully replaced, turn on "Allow Emptying the Data Source". Nothing was changed.`,
		},
	);
}

/**
 * A Sync where not one row can be keyed writes nothing it was asked to write: that is an error
 * (usually a misspelt key column), not a green run with every row skipped.
 */
function refuseUnkeyed(
	this: IExecuteFunctions,
	rows: InputRows,
	plan: SyncPlan,
	settings: SyncSettings,
	refused: Map<number, unknown>,
): void {
	const candidates = rows.length - refused.size;
	const unkeyed = plan.skipped.filter((row) => row.reason.startsWith('Missing key column')).length;
	if (candidates === 0 || unkeyed < candidates) return;
	const columns = new Set<string>();
	// Refused rows were emptied, so only the columns of the others are listed.
	for (const row of rows) for (const column of Object.keys(row)) columns.add(column);
	const names = [...columns];
	const shown = names.slice(0, 30).map((name) => `"${name}"`);
	const keys = settings.keyColumns.map((name) => `"${name}"`).join(', ');
	throw new NodeOperationError(
		this.getNode(),
		`No input row has a value in the key column${settings.keyColumns.length > 1 ? 's' : ''} ${keys}`,
		{
			itemIndex: 0,
			description: `The rows have ${names.length ? `the columns ${shown.join(', ')}${names.length > shown.length ? ` and ${names.length - shown.length} more` : ''}` : 'no columns'}. Column names are case-sensitive: set "Key Columns" to the column that identifies a row, or fill it in the input. Nothing was changed.`,
		},
	);
}

/** Mirror's delete limits that a plan goes over, each with what to set to allow it. */
function exceededDeleteLimits(plan: SyncPlan, settings: SyncSettings) {
	const { count, share } = mirrorDeletes(plan);
	const exceeded: Array<{ limit: string; allow: string }> = [];
	if (count > (settings.maxDeletes ?? Infinity)) {
		exceeded.push({
			limit: `Max Deletes (Entries) is ${settings.maxDeletes}`,
			allow: `raise "Max Deletes (Entries)" to at least ${count}`,
		});
	}
	if (share > (settings.maxDeleteShare ?? Infinity)) {
		exceeded.push({
			limit: `Max Deletes (% of Entries) is ${settings.maxDeleteShare}%`,
			allow: `raise "Max Deletes (% of Entries)" to at least ${Math.ceil(share)}`,
		});
	}
	return exceeded;
}

/** The entries Mirror deletes because their key is not in the input (flagged rows aside). */
function mirrorDeletes(plan: SyncPlan) {
	const count = plan.deletes.filter((row) => !row.flagged).length;
	const share = plan.existingCount ? (count / plan.existingCount) * 100 : 0;
	return { count, share };
}

/**
 * Mirror's delete guard: refuses a run that would delete more entries than the limits allow (on
 * by default). Only mirror deletes entries no row flagged, so the guard never stops another mode.
 */
function refuseTooManyDeletes(
	this: IExecuteFunctions,
	plan: SyncPlan,
	settings: SyncSettings,
): void {
	const emptying = plan.existingCount > 0 && plan.deletes.length >= plan.existingCount;
	if (emptying && settings.allowEmpty) return;
	const exceeded = exceededDeleteLimits(plan, settings);
	if (!exceeded.length) return;
	const { count, share } = mirrorDeletes(plan);
	const shown = `${Math.round(share * 10) / 10}%`;
	const limits = exceeded.map(({ limit }) => limit).join(' and ');
	const allow = exceeded.map(({ allow }) => allow).join(' and ');
	throw new NodeOperationError(
		this.getNode(),
		`Mirror would delete ${count} of ${plan.existingCount} entries (${shown}); ${limits}`,
		{
			itemIndex: 0,
			description: `Nothing was changed. Entries are deleted when their key is not among the input rows: check that the input holds every row (a filter or an empty sheet upstream?) and the key columns. If these entries really should go, ${allow}, or run with "Dry Run" first to see them.`,
		},
	);
}

type FailedError = Error & { description?: string | null; httpCode?: string | null };

/**
 * The commit error, told as where Sync stopped, what landed (or may have) and why re-running is
 * safe. A failed read of what lost commits stored, and a failed check of the keys after it, are
 * added to it, never put in its place: which commit did not land stays the first cause.
 */
function explainFailure(
	outcome: PlanOutcome,
	commitCount: number,
	checkFailure?: Error,
): FailedError {
	const { index, error, commit } = outcome.failure!;
	const rows = commit.inserts.length + commit.updates.length + commit.deletes.length;
	error.message = `Sync stopped at commit ${index + 1} of ${commitCount} (${commit.kind} of ${rows} rows): ${error.message}`;
	const status = Number(error.httpCode);
	// For server and network failures the generic advice ("check before re-sending") does not apply:
	// Sync re-reads and diffs, so a re-run cannot duplicate what landed. A refusal of the API or of
	// the node itself (data it cannot send) says what to fix.
	const refused = (status >= 400 && status < 500) || error instanceof NodeOperationError;
	const fix = refused && error.description ? ` ${error.description}` : '';
	const unread = outcome.checkFailure
		? ` Reading its keys to see what it stored failed too (${outcome.checkFailure.message}).`
		: '';
	const recovered = recoveredText(outcome);
	const check = checkFailure
		? ` Checking the keys for duplicates failed too (${checkFailure.message}), so another run inserting the same keys meanwhile could have left a key on two entries.`
		: '';
	error.description = `${landedText(outcome, commitCount)}.${unread}${recovered ? ` ${recovered}` : ''}${check} ${RERUN_IS_SAFE}${fix}`;
	return error;
}

/** A failed check of the keys after every commit landed, told as what it is: the rows were written. */
function explainCheckFailure(failure: NodeApiError | NodeOperationError, inserted: number) {
	failure.message = `Sync wrote its rows, but checking the keys for duplicates failed: ${failure.message}`;
	failure.description =
		`${inserted} rows were inserted. Another run of Sync inserting the same keys at the same time could have left a key on two entries; this run could not check. Run Sync again with the same input when the cause is fixed: it inserts nothing twice, and a key it finds on several entries keeps only one. ${failure.description ?? ''}`.trim();
	return failure;
}

/**
 * The check of the keys after the commits (see repairDuplicates). Its failure is handed back, not
 * thrown, so that a commit's failure before it stays the error.
 */
async function checkKeys(
	this: IExecuteFunctions,
	scope: RepairScope,
	keys: number[],
	sourceWasEmpty: boolean,
): Promise<{ repair: Repair } | { failure: NodeApiError | NodeOperationError }> {
	try {
		return { repair: await repairDuplicates.call(this, scope, keys, sourceWasEmpty) };
	} catch (error) {
		return { failure: asNodeError(this.getNode(), error, 0) };
	}
}

/**
 * With Continue On Fail a refusal of the whole run (bad settings, "would empty the data source",
 * a failed read) becomes one error item paired with every input item; nothing was changed.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	try {
		return await sync.call(this, items);
	} catch (error) {
		const failure = asNodeError(this.getNode(), error, 0);
		if (!this.continueOnFail()) throw failure;
		return [{ ...errorItem(failure, 0), pairedItem: items.map((_, item) => ({ item })) }];
	}
}

/** Error items (refused rows, rows not found) in item order, after the summary and row items. */
function withErrorItems(
	summary: INodeExecutionData[],
	...errors: Array<Map<number, NodeOperationError>>
): INodeExecutionData[] {
	const all = errors.flatMap((map) => [...map]).sort(([a], [b]) => a - b);
	return [...summary, ...all.map(([itemIndex, error]) => errorItem(error, itemIndex))];
}

async function sync(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const settings = readSyncSettings.call(this);
	const target = getDataSourceTarget.call(this, 0);
	const rows: InputRows = items.map((item) => {
		// Every field is a column, `id` and `createdAt` included: the data belongs to the user.
		return settings.typecast ? typecastRow(item.json) : item.json;
	});
	const counter = { requests: 0 };
	const read = await readAndDiff.call(this, target, rows, settings, counter);
	const { plan, refused } = read;
	// Refused rows were emptied so they change nothing: they are not "skipped" for a missing key.
	plan.skipped = plan.skipped.filter((row) => !refused.has(row.itemIndex));
	refuseUnkeyed.call(this, rows, plan, settings, refused);
	const notFound = refuseNotFound.call(this, plan, settings);
	refuseEmptying.call(this, plan, settings);
	refuseTooManyDeletes.call(this, plan, settings);
	// The summary (and row items), then one error item per refused or not found row.
	const output = (summary: INodeExecutionData[], ...more: Array<Map<number, NodeOperationError>>) =>
		withErrorItems(summary, refused, notFound, ...more);
	const commits = planCommits(plan, settings);
	const summaryInput = {
		plan,
		commits,
		mode: settings.mode,
		itemCount: items.length,
		outputRows: settings.outputRows,
		...(settings.deleteColumn === undefined ? {} : { flaggedAbsent: plan.flaggedAbsent }),
		...(settings.mode === 'updateOnly' ? { notFound: plan.notFound.length } : {}),
	};
	if (settings.dryRun) return output(buildOutput({ ...summaryInput, requests: counter.requests }));

	const scope = { target, plan, settings, counter };
	const outcome = await sendPlan.call(this, scope, commits);
	// Even after a failure part-way, the keys that landed or may have are checked, so overlapping
	// runs converge; so are the keys the reads found on several entries, which a commit whose
	// answer was lost may have left behind.
	const inserted = [...outcome.landed, ...outcome.unknown].flatMap((commit) => commit.inserts);
	const shared = [...plan.shared, ...outcome.shared];
	// Without shared keys (the usual run) the inserted rows are the list: no set of them to build.
	const checked = shared.length ? [...new Set([...inserted, ...shared])] : inserted;
	const check = await checkKeys.call(this, scope, checked, read.sourceWasEmpty);
	const checkFailure = 'failure' in check ? check.failure : undefined;
	const repair = 'repair' in check ? check.repair : undefined;
	const result = { ...summaryInput, outcome, repair, requests: counter.requests };
	if (!outcome.failure && !checkFailure) {
		const summary = buildOutput(result);
		const { inserted: added, updated } = summary[0].json;
		const written = `The other rows were written (${String(added)} inserted, ${String(updated)} updated).`;
		const vanished = vanishedErrors.call(this, plan, outcome.vanished, written);
		return output(summary, vanished);
	}

	const error = outcome.failure
		? explainFailure(outcome, commits.length, checkFailure)
		: explainCheckFailure(checkFailure!, inserted.length);
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
	return output(
		buildOutput(result, failure),
		vanishedErrors.call(this, plan, outcome.vanished, ''),
	);
}
