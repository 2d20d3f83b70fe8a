import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { jsonParameter } from '../../helpers/dataSourceQuery';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItemsOnce } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { FORM_EMAILS_NOT_SENT, HOOK_KINDS, runHooksOption } from './entry.descriptions';
import { splitList } from '../../helpers/commaList';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Entries (JSON)',
		name: 'entries',
		type: 'json',
		default: '[]',
		required: true,
		placeholder: '[{"data": {"Name": "New"}, "clientId": "a1"}]',
		description:
			'The entries to write, as a JSON array. Each entry holds its columns under "data". An entry with only "data" (and an optional "clientId" that the response maps to its new ID) is inserted. To update a stored entry instead, add its entry ID next to "data", the way Get and Get Many output entries.',
	},
	{
		displayName: 'Keep Entries Not Sent',
		name: 'append',
		type: 'boolean',
		default: true,
		description:
			'Whether to keep the existing entries that are not in the list. Turn off only to replace the whole data source with the sent entries.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Delete Entry IDs',
				name: 'delete',
				type: 'string',
				default: '',
				placeholder: 'e.g. 12, 13',
				description: 'Comma-separated IDs of entries to delete in the same commit',
			},
			{
				displayName: 'Merge Columns',
				name: 'extend',
				type: 'boolean',
				default: false,
				description:
					"Whether updates merge the sent columns into the stored ones (otherwise an update replaces the entry's data)",
			},
			{
				displayName: 'Return Entries',
				name: 'returnEntries',
				type: 'boolean',
				default: false,
				description:
					'Whether to return the whole data set after the commit (can be large). Off returns only the IDs of new entries that had a clientId.',
			},
			runHooksOption(
				`Which of the data source's hooks run for the entries the commit inserts or updates: ${HOOK_KINDS}. ${FORM_EMAILS_NOT_SENT}`,
			),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['commit'] } },
	properties,
);

function deleteIds(this: IExecuteFunctions, text: string, itemIndex: number): number[] {
	const parts = splitList(text);
	const bad = parts.find((part) => !/^\d+$/.test(part));
	if (bad !== undefined) {
		throw new NodeOperationError(this.getNode(), `Delete Entry IDs: "${bad}" is not an ID`, {
			itemIndex,
			description: 'List entry IDs as whole numbers separated by commas, e.g. 12, 13.',
		});
	}
	return parts.map(Number);
}

const ENTRY_KEYS = ['id', 'data', 'clientId'];

/** An unknown key (e.g. "ID") would be dropped by the API and turn an update into an insert. */
function refuseUnknownKeys(this: IExecuteFunctions, entries: IDataObject[], itemIndex: number) {
	entries.forEach((entry, position) => {
		const key = Object.keys(entry).find((name) => !ENTRY_KEYS.includes(name));
		if (key === undefined) return;
		throw new NodeOperationError(
			this.getNode(),
			`Entries: item ${position} has an unknown key "${key}"`,
			{
				itemIndex,
				description: `An entry takes only "id" (lowercase, to update), "data" and "clientId", e.g. {"id": 123, "data": {...}}. Put columns inside "data".`,
			},
		);
	});
}

/** A commit that returns the whole data set is kept in an error as its entry count only. */
const COMMITTED = {
	noun: 'entries',
	done: 'committed',
	keep: ({ entries, ...rest }: IDataObject): IDataObject =>
		Array.isArray(entries) ? { ...rest, entriesReturned: entries.length } : rest,
};

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, COMMITTED, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entries = (jsonParameter.call(this, 'entries', 'Entries', itemIndex, 'array') ??
			[]) as IDataObject[];
		const malformed = entries.findIndex(
			(entry) =>
				typeof entry !== 'object' ||
				entry === null ||
				typeof entry.data !== 'object' ||
				entry.data === null,
		);
		if (malformed !== -1) {
			throw new NodeOperationError(
				this.getNode(),
				`Entries: item ${malformed} has no "data" object`,
				{
					itemIndex,
					description:
						'Write each entry as {"data": {...}} to insert it, or {"id": 123, "data": {...}} to update entry 123.',
				},
			);
		}
		refuseUnknownKeys.call(this, entries, itemIndex);
		const badId = entries.findIndex(
			(entry) => entry.id !== undefined && !/^\d+$/.test(String(entry.id)),
		);
		if (badId !== -1) {
			throw new NodeOperationError(
				this.getNode(),
				`Entries: item ${badId} has an id that is not a whole number`,
				{
					itemIndex,
					description:
						'Leave "id" out to insert the entry, or give the id of the entry to update, e.g. {"id": 123, "data": {...}}.',
				},
			);
		}
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const body: IDataObject = {
			entries,
			append: this.getNodeParameter('append', itemIndex, true) as boolean,
			extend: options.extend === true,
			returnEntries: options.returnEntries === true,
		};
		const toDelete = deleteIds.call(this, String(options.delete ?? ''), itemIndex);
		if (toDelete.length) body.delete = toDelete;
		if (Array.isArray(options.runHooks) && options.runHooks.length)
			body.runHooks = options.runHooks;
		const response = await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'commit'),
			qs: target.qs,
			body,
			// Updates and deletes can be re-sent safely; inserts would be duplicated, and hooks may call
			// web addresses again.
			idempotent: !body.runHooks && entries.every((entry) => entry.id !== undefined),
			itemIndex,
		});
		return response as IDataObject;
	});
}
