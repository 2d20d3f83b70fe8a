import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { writeByColumnsToMatch } from './columnsToMatch';
import { hintEntryShapedItems } from '../../helpers/entryShapeHint';
import {
	entryColumnsToMatchField,
	FORM_EMAILS_NOT_SENT,
	HOOK_KINDS,
	ignoreFieldsOption,
	typecastOption,
	updateModeField,
} from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	entryColumnsToMatchField(
		'upsert',
		'The values to write per column. Pick the Columns to Match On: an entry holding the same values there is updated (every such entry), and an item no entry matches becomes a new entry. "Map Automatically" writes every field of the input item as a column of the same name.',
	),
	{
		displayName: 'Run Hooks',
		name: 'runHooks',
		type: 'boolean',
		default: true,
		description: `Whether the data source's insert hooks run for the entries created and its update hooks for the entries updated, as when an app writes them: ${HOOK_KINDS}. ${FORM_EMAILS_NOT_SENT} Off writes them as Studio's App data screen does, without hooks.`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Ignore Case of Values to Match On',
				name: 'ignoreKeyCase',
				type: 'boolean',
				default: false,
				description:
					'Whether values that differ only in upper/lower case (e.g. emails) match the same entry',
			},
			ignoreFieldsOption,
			typecastOption,
			updateModeField({
				merge: 'Change the given columns of a matched entry and keep its other columns',
				replace: 'A matched entry gets exactly the given columns; columns not given are removed',
				description: 'How an item updates the entries it matches',
			}),
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['upsert'] } },
	properties,
);

/**
 * Create or Update: each item updates the entries holding its values in the Columns to Match On,
 * or becomes a new entry when none does, through Sync's engine (see writeByColumnsToMatch).
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	hintEntryShapedItems.call(this, items);
	const runHooks = this.getNodeParameter('runHooks', 0, true) === true;
	const options = this.getNodeParameter('options', 0, {}) as {
		ignoreKeyCase?: boolean;
		typecast?: boolean;
		updateMode?: string;
	};
	return await writeByColumnsToMatch.call(this, items, {
		mode: 'insertAndUpdate',
		merge: options.updateMode !== 'replace',
		runHooks: runHooks ? ['insert', 'update'] : [],
		ignoreKeyCase: options.ignoreKeyCase === true,
		typecast: options.typecast === true,
	});
}
