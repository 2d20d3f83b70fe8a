import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { columnList } from '../../helpers/commaList';
import { getEntryData, requireColumns } from '../../helpers/dataSourceEntry';
import { getDataSourceTarget, type DataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapperColumnTypes } from '../../helpers/mapperColumns';
import { errorItem } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { withStoredTypes } from './sync/compare';
import type { InputRows } from './sync/diff';
import type { FailedError } from './sync/failureText';
import { rowKey } from './sync/keys';
import type { RowResult } from './sync/rowResults';
import { runSync } from './sync/run';
import {
	columnsToMatchSettings,
	type ColumnsToMatchWrite,
	type NotFoundWords,
} from './sync/settings';
import { rowForColumns, typecastRow, type ColumnTypes } from './sync/typecast';

/** How an operation writes its items by their Columns to Match On (see writeByColumnsToMatch). */
export type ColumnsToMatchOptions = Omit<ColumnsToMatchWrite, 'keyColumns' | 'columnTypes'>;

/** How Update by Columns to Match On words the errors of items no entry matches. */
export const UPDATE_NOT_FOUND: NotFoundWords = {
	mode: 'Update by Columns to Match On',
	fix: 'Check the values and the Columns to Match On (values are case-sensitive) and the data source, or use Create or Update to create an entry for such items.',
};

/** The Columns to Match On picked in the column mapper (stored in its value as matchingColumns). */
function columnsToMatchOn(this: IExecuteFunctions): string[] {
	const columns = columnList(this.getNodeParameter('columns.matchingColumns', 0, []));
	if (columns.length) return columns;
	throw new NodeOperationError(this.getNode(), 'No Columns to Match On picked', {
		itemIndex: 0,
		description:
			'Under "Columns", pick in "Columns to match on" the column (or columns) whose values identify an entry, e.g. Email. Nothing was sent.',
	});
}

/**
 * What the output says of an item whose insert was sent again after a commit of unknown outcome:
 * Create or Update never deletes an entry holding the values it reads, so a later run updates
 * both entries; Sync keeps one.
 */
const MAY_BE_DOUBLED_NOTE =
	'The commit of this item failed after being sent (a timeout, a lost connection or a gateway error) and was sent again once a read found its values absent. The first send may still be stored after this run, leaving these values on two entries (Create or Update would then update both): a few minutes later, run Sync on them with these Columns to Match On as its key columns, and it keeps one entry.';

/** What the output says of a new entry whose id the commit's answer did not carry. */
const NO_ID_NOTE =
	'Fliplet did not return the id of this new entry; find it with Get Many by the Columns to Match On.';

/**
 * The output item of a written row: the id of the entry that holds it (the lowest, when the key is
 * on several: `ids` lists them all), what happened, and the item's columns as written (a text
 * written as a number shows as that number). The columns stay under `data`, as in Create's
 * output, so a column named `id` never meets the entry's id.
 */
function writtenItem(
	result: RowResult,
	given: IDataObject,
	written: IDataObject,
	types: ColumnTypes,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = {
		id: result.ids[0] ?? null,
		action: result.action,
		data: rowForColumns(withStoredTypes(written, given), types),
	};
	if (result.ids.length > 1) json.ids = result.ids;
	if (!result.ids.length) json.idNote = NO_ID_NOTE;
	if (result.mayBeDoubled) {
		json.mayBeDoubled = true;
		json.mayBeDoubledNote = MAY_BE_DOUBLED_NOTE;
	}
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Why a row was not written for sure (reachable with Continue On Fail only: without it the run
 * threw). `error` is the run's failure: which commit stopped, what landed and what may have.
 */
function unwrittenError(
	this: IExecuteFunctions,
	result: RowResult,
	itemIndex: number,
	error: FailedError | undefined,
): Error {
	if (result.error) return result.error;
	const why =
		result.action === 'skip'
			? `it was left out (${result.reason ?? 'no reason given'})`
			: result.outcome === 'mayHaveLanded'
				? 'its commit failed after it was sent, so it may have been written'
				: 'the run stopped before its commit was sent';
	const run = error ? `${error.message}. ${error.description ?? ''} ` : '';
	return new NodeOperationError(this.getNode(), `Item ${itemIndex} was not written: ${why}`, {
		itemIndex,
		description: `${run}Run the node again with this item: it finds what was written and writes the rest.`,
	});
}

/** Refuses an item's row without a value in a column to match on. */
function requireMatchValues(
	this: IExecuteFunctions,
	row: IDataObject,
	{ keyColumns, ignoreKeyCase }: Pick<ColumnsToMatchWrite, 'keyColumns' | 'ignoreKeyCase'>,
	itemIndex: number,
): void {
	const found = rowKey(row, keyColumns, ignoreKeyCase);
	if ('key' in found) return;
	const names = found.missing.map((column) => `"${column}"`).join(', ');
	throw new NodeOperationError(
		this.getNode(),
		`Item ${itemIndex} has no value to match on in ${names}`,
		{
			itemIndex,
			description: `The Columns to Match On find the entry to update, so each item needs a value there: map one under "Columns" (or give the input item that field), or pick other Columns to Match On. Nothing was sent for this item.`,
		},
	);
}

/**
 * Writes each input item by its Columns to Match On, through Sync's engine (read by key, commits in
 * batches, exact under faults: see docs/create-or-update.md): every entry holding the item's
 * values there is updated, none deleted; with `mode: 'insertAndUpdate'` an item no entry holds
 * becomes a new entry, with `updateOnly` it is an error. Items with the same values are applied
 * in input order as one write. One output item per input item, paired with it; with Continue On
 * Fail a bad item is an error item and the others go on. Items are checked (by `checkItem` too)
 * before any request.
 */
export async function writeByColumnsToMatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	options: ColumnsToMatchOptions,
	checkItem: (itemIndex: number) => void = () => {},
): Promise<INodeExecutionData[]> {
	const keyColumns = columnsToMatchOn.call(this);
	const settings = columnsToMatchSettings({
		...options,
		keyColumns,
		columnTypes: mapperColumnTypes.call(this),
	});
	const output: INodeExecutionData[] = new Array(items.length);
	const given: IDataObject[] = new Array(items.length);
	// Items by data source: one run of the engine each (an expression may name another per item).
	const groups = new Map<string, { target: DataSourceTarget; members: number[] }>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			checkItem(itemIndex);
			const target = getDataSourceTarget.call(this, itemIndex);
			const row = getEntryData.call(this, items, itemIndex);
			requireColumns.call(this, row, itemIndex);
			requireMatchValues.call(this, row, settings, itemIndex);
			given[itemIndex] = settings.typecast ? typecastRow(row) : row;
			const group = JSON.stringify(target);
			if (!groups.has(group)) groups.set(group, { target, members: [] });
			groups.get(group)!.members.push(itemIndex);
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw failure;
			output[itemIndex] = errorItem(failure, itemIndex);
		}
	}
	for (const { target, members } of groups.values()) {
		// Row `i` of the run is item `i`, so errors name the right item; rows of other items (another
		// data source, refused above) are empty: they have no key and are left out.
		const rows: InputRows = items.map(() => ({}));
		for (const item of members) rows[item] = given[item];
		let run;
		try {
			run = await runSync.call(this, target, rows, settings, { rowResults: true });
		} catch (error) {
			// Refused as a whole before anything was written, or stopped (the error says what landed).
			const failure = asNodeError(this.getNode(), error, members[0]);
			if (!this.continueOnFail()) throw failure;
			for (const item of members) output[item] = errorItem(failure, item);
			continue;
		}
		for (const item of members) {
			const result = run.rows![item];
			const holds = ['insert', 'update', 'unchanged'].includes(result.action);
			if (holds && result.outcome === 'done') {
				// The row the item was written as: the engine folds the items of one key into the first
				// one's row, which carries the write of all of them.
				const written = rows[run.foldedInto?.get(item) ?? item];
				output[item] = writtenItem(result, given[item], written, run.columnTypes!, item);
				continue;
			}
			const failure = unwrittenError.call(this, result, item, run.error);
			if (!this.continueOnFail()) throw failure;
			output[item] = errorItem(failure, item);
			if (result.outcome === 'mayHaveLanded') output[item].json.mayHaveLanded = true;
		}
	}
	return output;
}
