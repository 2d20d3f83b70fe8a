import type {
	ILoadOptionsFunctions,
	INodeParameterResourceLocator,
	INodePropertyOptions,
} from 'n8n-workflow';

import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

/** The columns of the data source picked in the node, or none when it is not set yet. */
export async function dataSourceColumns(this: ILoadOptionsFunctions): Promise<string[]> {
	const locator = this.getCurrentNodeParameter('dataSource') as
		| INodeParameterResourceLocator
		| undefined;
	const value = String(locator?.value ?? '').trim();
	if (!value) return [];
	const byName = locator?.mode === 'name';
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: apiPath('data-sources', value),
		qs: byName && /^\d+$/.test(value) ? { dsn: 'true' } : {},
	});
	const columns = objectFrom(body, 'dataSource').columns;
	return Array.isArray(columns) ? columns.map(String) : [];
}

export async function getDataSourceColumns(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const columns = await dataSourceColumns.call(this);
	return [
		...columns.map((column) => ({ name: column, value: column })),
		{ name: 'Entry ID', value: 'id' },
		{ name: 'Created At', value: 'createdAt' },
		{ name: 'Updated At', value: 'updatedAt' },
	];
}
