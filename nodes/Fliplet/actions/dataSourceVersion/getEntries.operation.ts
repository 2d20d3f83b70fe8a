import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entryAs, type EntryOutput } from '../../helpers/dataSourceEntry';
import { jsonParameter } from '../../helpers/dataSourceQuery';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { maxResults, takeFirst } from '../../helpers/limits';
import { readWholeNumberParameter } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { entryOutputField } from '../entry/entry.descriptions';
import { whereJsonField } from '../entry/query.descriptions';
import { versionIdField } from './version.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	versionIdField,
	{ ...whereJsonField, default: '' },
	...returnAllOrLimit(),
	entryOutputField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['dataSourceVersion'], operation: ['getEntries'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const versionId = readWholeNumberParameter.call(this, 'versionId', 'Version ID', itemIndex, '');
		const where = jsonParameter.call(this, 'where', 'Where', itemIndex, 'object') as
			| IDataObject
			| undefined;
		const max = maxResults.call(this, itemIndex);
		const path = dataSourcePath(target, 'versions', versionId, 'data');
		const limit = Number.isFinite(max) ? { limit: max } : {};
		// A filter can only be sent in a POST body; without one, a plain GET reads the entries. The
		// API has no paging here: one request reads the version (a stored snapshot, which no writer changes).
		const body =
			where && Object.keys(where).length
				? await flipletApiRequest.call(this, {
						method: 'POST',
						path,
						qs: target.qs,
						body: { where, ...limit },
						idempotent: true,
						itemIndex,
					})
				: await flipletApiRequest.call(this, {
						method: 'GET',
						path,
						qs: { ...target.qs, ...limit },
						itemIndex,
					});
		const entries = takeFirst(listFrom(this.getNode(), body, 'entries', itemIndex), max);
		const output = this.getNodeParameter('entryOutput', itemIndex, 'entry') as EntryOutput;
		return entries.map((entry) => entryAs(entry, output));
	});
}
