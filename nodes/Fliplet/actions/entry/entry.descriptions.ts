import type { INodeProperties } from 'n8n-workflow';

export const entryIdField: INodeProperties = {
	displayName: 'Entry ID',
	name: 'entryId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 4567',
	description: 'The ID of the entry (row), as Get Many / Query returns it',
};

/** Columns to write, mapped one by one or taken from all fields of the input item. */
export const entryColumnsField: INodeProperties = {
	displayName: 'Columns',
	name: 'columns',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'defineBelow', value: null },
	required: true,
	description:
		'The values to write per column. "Map Automatically" writes every field of the input item as a column of the same name.',
	typeOptions: {
		loadOptionsDependsOn: ['dataSource.value'],
		resourceMapper: {
			resourceMapperMethod: 'getDataSourceColumnsMapping',
			mode: 'add',
			fieldWords: { singular: 'column', plural: 'columns' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
		},
	},
};

export const simplifyEntriesOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return each entry as its columns plus its ID, instead of the full entry with data, dataSourceId, createdAt and updatedAt',
};

/** The Run Hooks option of Commit and Sync: which of the data source's hooks run. */
export function runHooksOption(description: string): INodeProperties {
	return {
		displayName: 'Run Hooks',
		name: 'runHooks',
		type: 'multiOptions',
		default: [],
		options: [
			{ name: 'Insert', value: 'insert' },
			{ name: 'Update', value: 'update' },
		],
		description,
	};
}
