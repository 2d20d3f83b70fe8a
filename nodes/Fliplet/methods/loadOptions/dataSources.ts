import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { columnDefinition } from '../../helpers/columnTypes';
import { ROW_ORDER } from '../../helpers/dataSourceQuery';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { readLocator } from '../../helpers/locators';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';

/**
 * The data source picked in the node (as the API describes it), or none when it is not set yet. Its
 * locator is read as a run reads it (see getDataSourceTarget), so an ID, a name and an address
 * reach the same data source in the editor's lists as in the run.
 */
export async function currentDataSource(
	this: ILoadOptionsFunctions,
): Promise<IDataObject | undefined> {
	const picked = {
		getNode: () => this.getNode(),
		getNodeParameter: (name: string) => this.getCurrentNodeParameter(name),
	};
	if (!readLocator.call(picked, 'dataSource', 0).value) return undefined;
	const target = getDataSourceTarget.call(picked, 0);
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: dataSourcePath(target),
		qs: target.qs,
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
