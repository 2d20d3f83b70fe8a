import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	entryFrom,
	getEntryData,
	getEntryId,
	requireColumns,
	requireStorable,
} from '../../helpers/dataSourceEntry';
import { entryFileParts, textParts } from '../../helpers/dataSourceFiles';
import {
	dataSourcePath,
	getDataSourceTarget,
	type DataSourceTarget,
} from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest, streamedMultipart, type StreamedFile } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { hintEntryShapedItems } from '../../helpers/entryShapeHint';
import { UPDATE_NOT_FOUND, writeByColumnsToMatch } from './columnsToMatch';
import {
	entryColumnsField,
	entryColumnsToMatchField,
	entryFilesField,
	entryIdField,
	entryWriteOptions,
	FORM_EMAILS_NOT_SENT,
	HOOK_KINDS,
	updateModeField,
} from './entry.descriptions';

/** Update by Entry ID (default) or by Columns to Match On: the fields of each. */
const byId = { show: { matchBy: ['id'] } };
const byColumns = { show: { matchBy: ['columns'] } };

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		default: 'id',
		options: [
			{
				name: 'Entry ID',
				value: 'id',
				description: 'Update the one entry with this ID',
			},
			{
				name: 'Columns to Match On',
				value: 'columns',
				description:
					"Update every entry holding the item's values in the columns picked (e.g. Email); an item no entry matches is an error, nothing is created",
			},
		],
		description: 'How the entry to update is found',
	},
	{ ...entryIdField, displayOptions: byId },
	updateModeField({
		merge:
			'Change only the given columns and keep the others, as an app updates an entry: a change another writer makes to other columns meanwhile is kept',
		replace:
			'The entry gets exactly the given columns; columns not given are removed (files cannot be uploaded)',
	}),
	{ ...entryColumnsField, displayOptions: byId },
	{
		...entryColumnsToMatchField(
			'update',
			'The values to write per column. Pick the Columns to Match On: every entry holding the same values there is updated. "Map Automatically" writes every field of the input item as a column of the same name.',
		),
		displayOptions: byColumns,
	},
	{
		displayName: 'Run Update Hooks',
		name: 'runHooks',
		type: 'boolean',
		default: true,
		description: `Whether the data source's update hooks run, as when an app updates an entry: ${HOOK_KINDS}. ${FORM_EMAILS_NOT_SENT} Off writes the columns as Studio's App data screen does, without hooks (files can then not be uploaded).`,
	},
	{
		...entryFilesField(
			"Binary files of the input item to upload onto the entry, as an app's form does: the column gets the new file's URL (replacing what it held, a list of files too) and a sibling column named after it plus MediaFileId its media file ID",
		),
		// Fliplet takes files only on the update its apps send: by entry ID, merged, with the hooks.
		displayOptions: { show: { matchBy: ['id'], updateMode: ['merge'], runHooks: [true] } },
	},
	entryWriteOptions,
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

/** The platform reads a multipart part of this name as the files' settings, not as a column. */
const FILE_SCHEMA = '_flSchema';

/**
 * The single-entry update (`PUT …/data/:entryId`), which Fliplet's apps and widgets send: it
 * merges the columns into the entry and runs the data source's update hooks and beforeSave
 * operations. With files it is multipart, as the platform's JS API sends an update with FormData,
 * with `_flSchema` asking that each file column be replaced (`append: false`), not added to the
 * list a form may have stored there. Not retried once it may have reached Fliplet: a second one
 * would run the hooks again. The answer is the entry; an answer without one is read back.
 */
async function updateWithHooks(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	entryId: number,
	data: IDataObject,
	files: StreamedFile[],
	itemIndex: number,
) {
	const request = {
		method: 'PUT' as const,
		path: dataSourcePath(target, 'data', entryId),
		qs: target.qs,
		itemIndex,
	};
	const schema = Object.fromEntries(files.map((file) => [file.name, { append: false }]));
	const answer = files.length
		? await flipletApiRequest.call(this, {
				...request,
				multipart: streamedMultipart(
					[...textParts(data), { name: FILE_SCHEMA, value: JSON.stringify(schema) }],
					files,
				),
			})
		: await flipletApiRequest.call(this, { ...request, body: data });
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
	hintEntryShapedItems.call(this, items);
	if (this.getNodeParameter('matchBy', 0, 'id') === 'columns')
		return await updateByColumnsToMatch.call(this, items);
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entryId = getEntryId.call(this, itemIndex);
		const data = getEntryData.call(this, items, itemIndex);
		const files = await entryFileParts.call(this, itemIndex);
		requireColumns.call(this, data, itemIndex, files.length > 0);
		requireStorable.call(this, data, itemIndex);
		const merge = this.getNodeParameter('updateMode', itemIndex, 'merge') === 'merge';
		const runHooks = this.getNodeParameter('runHooks', itemIndex, true) === true;
		if (files.length) requireFileUpdate.call(this, data, merge && runHooks, itemIndex);
		if (merge && runHooks)
			return await updateWithHooks.call(this, target, entryId, data, files, itemIndex);
		return await commitEntry.call(this, target, entryId, data, { merge, runHooks }, itemIndex);
	});
}

/**
 * Files travel only with the single-entry update: a commit (Replace Entry, or Run Update Hooks
 * off) is JSON and carries none. Refused before anything is sent, as is a column named _flSchema.
 */
function requireFileUpdate(
	this: IExecuteFunctions,
	data: IDataObject,
	singleEntryUpdate: boolean,
	itemIndex: number,
) {
	if (!singleEntryUpdate) {
		throw new NodeOperationError(
			this.getNode(),
			'Files can only be uploaded with Merge Columns and Run Update Hooks on',
			{
				itemIndex,
				description:
					'Fliplet takes files only on the single-entry update (the one its apps send, which runs the update hooks); Replace Entry and updates without hooks are commits, which carry no files. Turn Run Update Hooks on and choose Merge Columns, or upload the file with Media File → Upload and write its URL into the column. Nothing was sent for this item.',
			},
		);
	}
	if (Object.prototype.hasOwnProperty.call(data, FILE_SCHEMA)) {
		throw new NodeOperationError(
			this.getNode(),
			`A column named ${FILE_SCHEMA} cannot be written with files`,
			{
				itemIndex,
				description: `Fliplet reads a part named ${FILE_SCHEMA} as the settings of the uploaded files. Rename that column, or write it in an update without files. Nothing was sent for this item.`,
			},
		);
	}
}

/**
 * Update by Columns to Match On: Sync's engine in Only Update Existing mode (see
 * writeByColumnsToMatch), updating every entry holding the item's values and never creating one.
 * It writes with commits, which carry no files: an item with files is refused.
 */
async function updateByColumnsToMatch(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const runHooks = this.getNodeParameter('runHooks', 0, true) === true;
	return await writeByColumnsToMatch.call(
		this,
		items,
		{
			mode: 'updateOnly',
			merge: this.getNodeParameter('updateMode', 0, 'merge') === 'merge',
			runHooks: runHooks ? ['update'] : [],
			ignoreKeyCase: false,
			typecast: false,
			notFoundWords: UPDATE_NOT_FOUND,
		},
		(itemIndex) => refuseFilesByColumns.call(this, itemIndex),
	);
}

/** Files travel only with the single-entry update, which needs the entry's ID. */
function refuseFilesByColumns(this: IExecuteFunctions, itemIndex: number) {
	const files = this.getNodeParameter('files.file', itemIndex, []) as unknown[];
	if (!files.length) return;
	throw new NodeOperationError(
		this.getNode(),
		'Files can only be uploaded onto an entry found by its Entry ID',
		{
			itemIndex,
			description:
				'Fliplet takes files only on the single-entry update, which names the entry by its ID; entries found by Columns to Match On are updated with commits, which carry no files. Choose Match By: Entry ID (find the ID with Get Many first), or upload the file with Media File → Upload and write its URL into the column. Nothing was sent for this item.',
		},
	);
}
