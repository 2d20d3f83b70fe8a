import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	bareWhere,
	buildWhere,
	jsonParameter,
	type SimpleFilter,
} from '../../helpers/dataSourceQuery';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { isObject } from '../../helpers/isObject';
import { mapItems } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { filterRowsField, whereJsonField } from './query.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Filter Mode',
		name: 'queryMode',
		type: 'options',
		default: 'simple',
		options: [
			{ name: 'Simple', value: 'simple' },
			{ name: 'JSON', value: 'json' },
		],
	},
	{ ...filterRowsField, displayOptions: { show: { queryMode: ['simple'] } } },
	{ ...whereJsonField, displayOptions: { show: { queryMode: ['json'] } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['deleteMany'] } },
	properties,
);

/**
 * How many entries a delete query removed, read from either answer the platform's sources give:
 * `{deletedCount}` (SPEC, the REST docs) or the deleted entries (the source-checked JS docs,
 * `Fliplet/fliplet-cli` commit 8990dd3c), as `{entries}` or a bare list; a bare number or
 * `{count}` too. Undefined for any other answer.
 */
function deletedCountOf(body: unknown): number | undefined {
	if (typeof body === 'number' && Number.isInteger(body) && body >= 0) return body;
	if (Array.isArray(body)) return body.length;
	if (!isObject(body)) return undefined;
	for (const key of ['deletedCount', 'count']) {
		if (key in body) return deletedCountOf(body[key]);
	}
	return Array.isArray(body.entries) ? body.entries.length : undefined;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const where =
			this.getNodeParameter('queryMode', itemIndex, 'simple') === 'json'
				? (jsonParameter.call(this, 'where', 'Where', itemIndex, 'object') as
						| IDataObject
						| undefined)
				: buildWhere.call(
						this,
						this.getNodeParameter('filters.conditions', itemIndex, []) as SimpleFilter[],
						itemIndex,
					);
		if (!where || !Object.keys(where).length) {
			throw new NodeOperationError(this.getNode(), 'Delete Many needs at least one filter', {
				itemIndex,
				description:
					'Add a filter so only matching entries are deleted. To delete every entry on purpose, use the Empty operation.',
			});
		}
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'data', 'query'),
			qs: target.qs,
			body: { type: 'delete', where: bareWhere(where) },
			itemIndex,
		});
		// The delete ran: whatever the answer, the run reports it and never fails now.
		const deletedCount = deletedCountOf(body);
		if (deletedCount !== undefined) return { deletedCount };
		return { deletedCount: null, response: (body ?? null) as IDataObject };
	});
}
