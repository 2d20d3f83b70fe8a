import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { InputRows, SyncPlan } from './diff';
import type { SyncSettings } from './settings';

/** Whether the plan deletes every entry the data source holds (none when it holds none). */
function deletesEveryEntry(plan: SyncPlan): boolean {
	return plan.existingCount > 0 && plan.deletes.length >= plan.existingCount;
}

/**
 * Mirror never silently wipes the data source: deleting every entry needs "Allow Emptying", which
 * then also lets that run past the delete limits (it is the consent to lose every entry).
 */
export function refuseEmptying(
	this: IExecuteFunctions,
	plan: SyncPlan,
	settings: SyncSettings,
): void {
	if (settings.mode !== 'mirror' || settings.allowEmpty || !deletesEveryEntry(plan)) return;
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
export function refuseUnkeyed(
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

/** Mirror's delete limits that its deletes go over, each with what to set to allow it. */
function exceededDeleteLimits(
	{ count, share }: ReturnType<typeof mirrorDeletes>,
	settings: SyncSettings,
) {
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
export function refuseTooManyDeletes(
	this: IExecuteFunctions,
	plan: SyncPlan,
	settings: SyncSettings,
): void {
	if (settings.allowEmpty && deletesEveryEntry(plan)) return;
	const deletes = mirrorDeletes(plan);
	const exceeded = exceededDeleteLimits(deletes, settings);
	if (!exceeded.length) return;
	const { count, share } = deletes;
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
