import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	entryFrom,
	getEntryData,
	getEntryId,
	requireColumns,
	requireStorable,
} from '../../helpers/dataSourceEntry';
import {
	dataSourcePath,
	getDataSourceTarget,
	type DataSourceTarget,
} from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { entryColumnsField, entryIdField } from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	entryIdField,
	{
		displayName: 'Update Mode',
		name: 'updateMode',
		type: 'options',
		default: 'merge',
		options: [
			{
				name: 'Merge Columns',
				value: 'merge',
				description:
					"Change only the given columns and keep the others. Fliplet merges them itself in one request, so a change another writer makes to other columns meanwhile is kept: the single-entry update, as Fliplet's apps send it (with Run Update Hooks off, a commit with extend, then the entry is read back).",
			},
			{
				name: 'Replace Entry',
				value: 'replace',
				description:
					'The entry gets exactly the given columns; columns not given are removed (one commit without merging, then the entry is read back)',
			},
		],
	},
	entryColumnsField,
	{
		displayName: 'Run Update Hooks',
		name: 'runHooks',
		type: 'boolean',
		default: true,
		description:
			"Whether the data source's update hooks (web calls such as the Fliplet Instant Trigger's, emails, SMS, pushes) and its beforeSave operations (e.g. hashing a password column) run, as when an app updates an entry. Off writes the columns as Studio's App data screen does, without hooks.",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['update'] } },
	properties,
);

async function readEntry(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	entryId: number,
	itemIndex: number,
) {
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: dataSourcePath(target, 'data', entryId),
		qs: target.qs,
		itemIndex,
	});
	return entryFrom.call(this, body, itemIndex);
}

/**
 * The single-entry update (`PUT …/data/:entryId`), which Fliplet's apps and widgets send: it
 * merges the columns into the entry and runs the data source's update hooks and beforeSave
 * operations. Not retried once it may have reached Fliplet: a second one would run the hooks
 * again. The answer is the entry; an answer without one is read back.
 */
async function updateWithHooks(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	entryId: number,
	data: IDataObject,
	itemIndex: number,
) {
	const answer = await flipletApiRequest.call(this, {
		method: 'PUT',
		path: dataSourcePath(target, 'data', entryId),
		qs: target.qs,
		body: data,
		itemIndex,
	});
	const entry = objectFrom(answer, 'entry');
	return entry.id !== undefined ? entry : await readEntry.call(this, target, entryId, itemIndex);
}

/**
 * Writes the columns with one commit updating `{id, data}`: with `extend` the platform merges them
 * into the entry's other columns (nothing is read and written back, so another writer's change to
 * other columns in between is kept); without it the entry gets exactly these columns (the
 * single-entry update cannot replace: the platform merges there). With `runHooks` the commit asks
 * for the update hooks, and is then never retried; without, writing the same columns again
 * changes nothing, so it is. The commit does not return the entry, so it is read back.
 */
async function commitEntry(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	entryId: number,
	data: IDataObject,
	{ merge, runHooks }: { merge: boolean; runHooks: boolean },
	itemIndex: number,
) {
	await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'commit'),
		qs: target.qs,
		body: {
			entries: [{ id: entryId, data }],
			append: true,
			extend: merge,
			returnEntries: false,
			...(runHooks ? { runHooks: ['update'] } : {}),
		},
		idempotent: !runHooks,
		itemIndex,
	});
	return await readEntry.call(this, target, entryId, itemIndex);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entryId = getEntryId.call(this, itemIndex);
		const data = getEntryData.call(this, items, itemIndex);
		requireColumns.call(this, data, itemIndex);
		requireStorable.call(this, data, itemIndex);
		const merge = this.getNodeParameter('updateMode', itemIndex, 'merge') === 'merge';
		const runHooks = this.getNodeParameter('runHooks', itemIndex, true) === true;
		if (merge && runHooks)
			return await updateWithHooks.call(this, target, entryId, data, itemIndex);
		return await commitEntry.call(this, target, entryId, data, { merge, runHooks }, itemIndex);
	});
}
