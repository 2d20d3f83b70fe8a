import type { IDataObject, ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import {
	COLUMN_TYPE_SAMPLE,
	columnDefinition,
	sampledColumnTypes,
	type ColumnType,
} from '../../helpers/columnTypes';
import { apiPath, flipletApiRequest } from '../../transport';
import { currentDataSource } from '../loadOptions/dataSources';

/** The data of up to COLUMN_TYPE_SAMPLE entries, or none when the token may not read them. */
async function sampleEntryData(this: ILoadOptionsFunctions, dataSourceId: unknown) {
	try {
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('data-sources', String(dataSourceId), 'data', 'query'),
			body: { type: 'select', limit: COLUMN_TYPE_SAMPLE },
			idempotent: true,
		});
		const entries = (body as IDataObject).entries;
		return Array.isArray(entries) ? entries.map((entry) => (entry as IDataObject)?.data) : [];
	} catch {
		return [];
	}
}

/**
 * Data source columns as mapper fields. A column's type comes from its definition when it is typed,
 * otherwise from the values its entries hold (a column of numbers takes "40" typed in the editor
 * as the number 40); a column without values, or with mixed ones, is untyped and sent as given.
 */
async function columnFields(
	this: ILoadOptionsFunctions,
	canBeUsedToMatch: boolean,
): Promise<ResourceMapperFields> {
	const dataSource = await currentDataSource.call(this);
	const definitions = Array.isArray(dataSource?.columns)
		? dataSource.columns.map(columnDefinition)
		: [];
	const untyped = definitions.filter((column) => !column.type).map(({ name }) => name);
	const sampled = untyped.length
		? sampledColumnTypes(untyped, await sampleEntryData.call(this, dataSource?.id))
		: {};
	return {
		fields: definitions.map(({ name, type }) => {
			const columnType: ColumnType | undefined = type ?? sampled[name];
			return {
				id: name,
				displayName: name,
				required: false,
				defaultMatch: false,
				display: true,
				canBeUsedToMatch,
				...(columnType ? { type: columnType } : {}),
			};
		}),
	};
}

/** The columns to write (Create, Update by Entry ID). */
export async function getDataSourceColumnsMapping(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	return await columnFields.call(this, false);
}

/** The columns to write, each of which can be picked as a column to match on (Create or Update). */
export async function getDataSourceColumnsToMatch(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	return await columnFields.call(this, true);
}
