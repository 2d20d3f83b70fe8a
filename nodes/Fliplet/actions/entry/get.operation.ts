import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { entryAs, entryFrom, getEntryId, type EntryOutput } from '../../helpers/dataSourceEntry';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { downloadFilesSettings, entryWithFiles } from '../../helpers/fileDownloads';
import { mapItemsToExecutionData } from '../../helpers/mapItems';
import { flipletApiRequest } from '../../transport';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { downloadFilesFields } from '../files.descriptions';
import { entryIdField, entryOutputField } from './entry.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	entryIdField,
	entryOutputField,
	...downloadFilesFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsToExecutionData.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const entryId = getEntryId.call(this, itemIndex);
		const files = downloadFilesSettings((name, fallback) =>
			this.getNodeParameter(name, itemIndex, fallback),
		);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target, 'data', entryId),
			qs: target.qs,
			itemIndex,
		});
		const entry = entryFrom.call(this, body, itemIndex);
		const json = entryAs(
			entry,
			this.getNodeParameter('entryOutput', itemIndex, 'entry') as EntryOutput,
		);
		if (!files) return [{ json }];
		return [await entryWithFiles(this, entry, json, files, { itemIndex, failures: 'throw' })];
	});
}
