import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { errorItem } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { syncFields } from './sync/description';
import type { InputRows } from './sync/diff';
import { runSync } from './sync/run';
import { readSyncSettings } from './sync/settings';
import { typecastRow } from './sync/typecast';

const properties: INodeProperties[] = [dataSourceLocator(), ...syncFields];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['sync'] } },
	properties,
);

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
	return (await runSync.call(this, target, rows, settings)).items;
}
