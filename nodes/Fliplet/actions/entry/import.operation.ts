import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireStorable } from '../../helpers/dataSourceEntry';
import { errorItem } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { SendLedger } from '../../helpers/sendLedger';
import {
	dataSourcePath,
	getDataSourceTarget,
	type DataSourceTarget,
} from '../../helpers/dataSourceTarget';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { FORM_EMAILS_NOT_SENT, HOOK_KINDS } from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Import Mode',
		name: 'importMode',
		type: 'options',
		default: 'append',
		options: [
			{
				name: 'Add to Existing Entries',
				value: 'append',
				description: 'Every input item becomes a new entry; existing entries stay',
			},
			{
				name: 'Replace All Entries',
				value: 'replace',
				description:
					'Deletes every existing entry of the data source and stores the input items instead. Use with care.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Run Insert Hooks',
				name: 'runHooks',
				type: 'boolean',
				default: false,
				description: `Whether the data source's insert hooks run once for every imported entry: ${HOOK_KINDS}. Off by default: an import of 10,000 rows would send 10,000 emails or calls. ${FORM_EMAILS_NOT_SENT}`,
			},
		],
	},
	{
		displayName:
			'This node sends all input items in one request: each item\'s fields become the columns of one entry. "Replace All Entries" deletes every entry that is not in the input.',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['import'] } },
	properties,
);

interface Batch {
	target: DataSourceTarget;
	replace: boolean;
	runHooks: boolean;
	itemIndexes: number[];
}

/**
 * Items are grouped by data source and mode, so each group is one bulk request. An item whose data
 * source cannot be read becomes an error item (Continue On Fail) and joins no group.
 */
function groupItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	output: INodeExecutionData[],
): Batch[] {
	const batches = new Map<string, Batch>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let target: DataSourceTarget;
		try {
			target = getDataSourceTarget.call(this, itemIndex);
			requireStorable.call(this, items[itemIndex].json, itemIndex);
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw failure;
			output.push(errorItem(failure, itemIndex));
			continue;
		}
		const replace = this.getNodeParameter('importMode', itemIndex, 'append') === 'replace';
		const runHooks = this.getNodeParameter('options.runHooks', itemIndex, false) === true;
		const key = JSON.stringify([target.ref, target.qs, replace, runHooks]);
		const batch = batches.get(key) ?? { target, replace, runHooks, itemIndexes: [] };
		batch.itemIndexes.push(itemIndex);
		batches.set(key, batch);
	}
	return [...batches.values()];
}

const IMPORTED = { noun: 'entries', done: 'imported' };

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const ledger = new SendLedger(this, items, IMPORTED);
	const output: INodeExecutionData[] = [];
	for (const batch of groupItems.call(this, items, output)) {
		const pairedItem = batch.itemIndexes.map((item) => ({ item }));
		const [first] = batch.itemIndexes;
		const earlier = ledger.earlier(first);
		if (earlier?.outcome === 'done') {
			output.push(...ledger.replay(first));
			continue;
		}
		const entries: IDataObject[] = batch.itemIndexes.map((index) => items[index].json);
		try {
			if (earlier) throw ledger.notAgain(first);
			await flipletApiRequest.call(this, {
				method: 'POST',
				path: dataSourcePath(batch.target, 'data'),
				qs: batch.target.qs,
				// `runHooks` always goes explicitly: without it Fliplet runs the insert hooks of an append.
				body: batch.replace
					? { entries, runHooks: batch.runHooks }
					: { entries, append: true, runHooks: batch.runHooks },
				// Replacing twice leaves the same content; appending twice would duplicate entries, and
				// hooks would run twice.
				idempotent: batch.replace && !batch.runHooks,
				itemIndex: first,
			});
			const imported = {
				json: { imported: entries.length, mode: batch.replace ? 'replace' : 'append' },
				pairedItem,
			};
			ledger.sent(batch.itemIndexes, [[imported]]);
			output.push(imported);
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, first);
			ledger.failed(batch.itemIndexes, failure);
			if (!this.continueOnFail()) throw ledger.report(failure);
			output.push({ ...errorItem(failure, first), pairedItem });
		}
	}
	return output;
}
