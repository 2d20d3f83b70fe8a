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
					'Change only the given columns and keep the others. Fliplet merges them itself in one request (a commit with extend), so a change another writer makes to other columns meanwhile is kept; the node then reads the entry back to output it.',
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['update'] } },
	properties,
);

/**
 * Writes the columns with one commit updating `{id, data}`: with `extend` the platform merges them
 * into the entry's other columns (nothing is read and written back, so another writer's change to
 * other columns in between is kept); without it the entry gets exactly these columns. The single
 * entry update (`PUT …/data/:entryId`) cannot replace: the platform merges there too. The commit
 * does not return the entry, so it is read back for the output.
 */
async function commitEntry(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	entryId: number,
	data: IDataObject,
	merge: boolean,
	itemIndex: number,
) {
	await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'commit'),
		qs: target.qs,
		body: { entries: [{ id: entryId, data }], append: true, extend: merge, returnEntries: false },
		// Writing the same columns into the same entry again changes nothing (no hooks run).
		idempotent: true,
		itemIndex,
	});
	const path = dataSourcePath(target, 'data', entryId);
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path,
		qs: target.qs,
		itemIndex,
	});
	return entryFrom.call(this, body, itemIndex);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entryId = getEntryId.call(this, itemIndex);
		const data = getEntryData.call(this, items, itemIndex);
		requireColumns.call(this, data, itemIndex);
		requireStorable.call(this, data, itemIndex);
		const merge = this.getNodeParameter('updateMode', itemIndex, 'merge') === 'merge';
		return await commitEntry.call(this, target, entryId, data, merge, itemIndex);
	});
}
