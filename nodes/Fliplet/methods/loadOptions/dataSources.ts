import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeParameterResourceLocator,
	INodePropertyOptions,
} from 'n8n-workflow';

import { columnDefinition } from '../../helpers/columnTypes';
import { ROW_ORDER } from '../../helpers/dataSourceQuery';
import { objectFrom } from '../../helpers/responses';
import { dataSourceIdInUrl } from '../../helpers/studioUrls';
import { apiPath, flipletApiRequest } from '../../transport';

/** The data source picked in the node (as the API describes it), or none when it is not set yet. */
export async function currentDataSource(
	this: ILoadOptionsFunctions,
): Promise<IDataObject | undefined> {
	const locator = this.getCurrentNodeParameter('dataSource') as
		| INodeParameterResourceLocator
		| undefined;
	const typed = String(locator?.value ?? '').trim();
	const value = locator?.mode === 'url' ? String(dataSourceIdInUrl(typed) ?? '') : typed;
	if (!value) return undefined;
	const byName = locator?.mode === 'name';
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: apiPath('data-sources', value),
		qs: byName && /^\d+$/.test(value) ? { dsn: 'true' } : {},
	});
	return objectFrom(body, 'dataSource');
}

/** The columns of the data source picked in the node, or none when it is not set yet. */
export async function dataSourceColumns(this: ILoadOptionsFunctions): Promise<string[]> {
	const columns = (await currentDataSource.call(this))?.columns;
	return Array.isArray(columns) ? columns.map((column) => columnDefinition(column).name) : [];
}

/** The data source's columns: what filters can test (they match on an entry's data only). */
export async function getDataSourceColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const columns = await dataSourceColumns.call(this);
	return columns.map((column) => ({ name: column, value: column }));
}

/** The columns plus the entry fields a sort can order by. */
export async function getDataSourceSortColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		...(await getDataSourceColumns.call(this)),
		{ name: 'Entry ID', value: 'id' },
		{ name: 'Created At', value: 'createdAt' },
		{ name: 'Updated At', value: 'updatedAt' },
		{ name: 'Row Order (as in Fliplet Studio)', value: ROW_ORDER },
	];
}
