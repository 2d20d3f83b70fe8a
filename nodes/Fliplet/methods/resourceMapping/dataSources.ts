import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { dataSourceColumns } from '../loadOptions/dataSources';

/** Data source columns as mapper fields; values may be of any type (columns are untyped JSON). */
export async function getDataSourceColumnsMapping(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const columns = await dataSourceColumns.call(this);
	return {
		fields: columns.map((column) => ({
			id: column,
			displayName: column,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: false,
			type: 'string',
		})),
	};
}
