import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { columnsOfItem } from '../../helpers/dataSourceEntry';
import { getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { errorItem } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { planCommits } from './sync/chunks';
import { syncFields } from './sync/description';
import { comparerFor } from './sync/compare';
import { diffRows, toExistingEntry, type InputRows, type SyncPlan } from './sync/diff';
import { attributesFor } from './sync/attributes';
import { readEntries } from './sync/readEntries';
import { sendCommits, type CommitOutcome } from './sync/sendCommits';
import { type SyncSettings, readSyncSettings } from './sync/settings';
import { buildOutput, landedText, RERUN_IS_SAFE } from './sync/summary';
import { typecastRow } from './sync/typecast';
import { unsafeRows } from './sync/unsafeRows';

const properties: INodeProperties[] = [dataSourceLocator(), ...syncFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['sync'] } },
	properties,
);

/** Mirror never silently wipes the data source: deleting every entry needs "Allow Emptying". */
function refuseEmptying(this: IExecuteFunctions, plan: SyncPlan, settings: SyncSettings): void {
	if (settings.mode !== 'mirror' || settings.allowEmpty) return;
	if (!plan.existingCount || plan.deletes.length < plan.existingCount) return;
	const usable = plan.inserts.length + plan.updates.length + plan.unchanged;
	throw new NodeOperationError(
		this.getNode(),
		`Mirror would delete all ${plan.existingCount} entries of the data source`,
		{
			itemIndex: 0,
			description: `${usable ? `None of the ${usable} input rows has the key of an existing entry` : `No input row has a usable key (${plan.skipped.length} skipped)`}. Check the key columns (their names are case-sensitive) and the input. If the data source really should be emptied or fully replaced, turn on "Allow Emptying the Data Source". Nothing was changed.`,
		},
	);
}

type FailedError = Error & { description?: string | null; httpCode?: string | null };

/** The commit error, told as where Sync stopped, what landed and why re-running is safe. */
function explainFailure(
	outcome: CommitOutcome,
	total: number,
	commits: ReturnType<typeof planCommits>,
): FailedError {
	const { index, error } = outcome.failure!;
	const failed = commits[index];
	const rows = failed.inserts.length + failed.updates.length + failed.deletes.length;
	error.message = `Sync stopped at commit ${index + 1} of ${total} (${failed.kind} of ${rows} rows): ${error.message}`;
	const status = Number(error.httpCode);
	// For server and network failures the generic advice ("check before re-sending") does not apply:
	// Sync re-reads and diffs, so a re-run cannot duplicate what landed.
	const fix = status >= 400 && status < 500 && error.description ? ` ${error.description}` : '';
	error.description = `${landedText(outcome, total)}. ${RERUN_IS_SAFE}${fix}`;
	return error;
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

/**
 * Rows Sync must refuse (a field never sent). Without Continue On Fail the first stops the run;
 * with it each becomes an error item and its row is left out, except in mirror mode, where leaving
 * a row out would delete its entry: there the run is refused.
 */
function refuseRows(
	this: IExecuteFunctions,
	rows: InputRows,
	settings: SyncSettings,
): Map<number, NodeOperationError> {
	const refused = unsafeRows.call(this, rows);
	if (!refused.size) return refused;
	const [first] = refused.values();
	if (!this.continueOnFail()) throw first;
	if (settings.mode === 'mirror') {
		first.description = `${first.description ?? ''} Mirror mode needs every row (a row left out would have its entry deleted), so the whole run was refused.`;
		throw first;
	}
	for (const itemIndex of refused.keys()) rows[itemIndex] = {};
	return refused;
}

async function sync(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const settings = readSyncSettings.call(this);
	const target = getDataSourceTarget.call(this, 0);
	const rows: InputRows = items.map((item) => {
		const columns = columnsOfItem(item.json);
		return settings.typecast ? typecastRow(columns) : columns;
	});
	const refused = refuseRows.call(this, rows, settings);
	// The summary (and row items), then one error item per refused row.
	const output = (summary: INodeExecutionData[]) => [
		...summary,
		...[...refused].map(([itemIndex, error]) => errorItem(error, itemIndex)),
	];
	const counter = { requests: 0 };
	const comparer = comparerFor(rows, settings.merge);
	const entries = await readEntries.call(
		this,
		target,
		attributesFor(rows, settings.keyColumns, settings.merge),
		(id, data) => toExistingEntry(id, data, settings, comparer),
		counter,
	);
	const plan = diffRows(rows, entries, settings, comparer);
	// Refused rows were emptied so they change nothing: they are not "skipped" for a missing key.
	plan.skipped = plan.skipped.filter((row) => !refused.has(row.itemIndex));
	refuseEmptying.call(this, plan, settings);
	const commits = planCommits(plan, settings);
	const summaryInput = {
		plan,
		commits,
		mode: settings.mode,
		itemCount: items.length,
		outputRows: settings.outputRows,
	};
	if (settings.dryRun) return output(buildOutput({ ...summaryInput, requests: counter.requests }));

	const outcome = await sendCommits.call(this, target, commits, settings, counter);
	const result = { ...summaryInput, outcome, requests: counter.requests };
	if (!outcome.failure) return output(buildOutput(result));

	const error = explainFailure(outcome, commits.length, commits);
	if (!this.continueOnFail()) throw error;
	const failure: IDataObject = {
		error: error.message,
		description: error.description ?? null,
		failedCommit: outcome.failure.index + 1,
		totalCommits: commits.length,
	};
	return output(buildOutput(result, failure));
}
