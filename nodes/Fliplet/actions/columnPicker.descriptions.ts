import type { INodeProperties, INodePropertyTypeOptions } from 'n8n-workflow';

/** Options loaded from the data source picked in the same node, reloaded when it changes. */
export const loadColumns = (loadOptionsMethod: string): INodePropertyTypeOptions => ({
	loadOptionsMethod,
	loadOptionsDependsOn: ['dataSource.value'],
});

const EXPRESSIONS = '<a href="https://docs.n8n.io/code/expressions/">expression</a>';

export interface ColumnPickerField {
	displayName: string;
	name: string;
	/** What the column is for; the picker adds how to pick it. */
	description: string;
	/** Several columns (a multi-select), or one. */
	multiple?: boolean;
	required?: boolean;
	displayOptions?: INodeProperties['displayOptions'];
}

/**
 * A field naming columns of the node's data source: picked from its columns, or given with an
 * expression (a column the data source does not declare, a nested one such as Address.city).
 * Read it with `columnList`: workflows saved when these fields were comma-separated text keep that
 * text, and an expression may give either form.
 */
export function columnPicker(field: ColumnPickerField): INodeProperties {
	const { multiple = false, description, ...rest } = field;
	return {
		...rest,
		type: multiple ? 'multiOptions' : 'options',
		typeOptions: loadColumns('getDataSourceColumns'),
		default: multiple ? [] : '',
		description: multiple
			? `${description} Choose from the list, or specify names (a list, or text separated by commas) using an ${EXPRESSIONS}.`
			: `${description} Choose from the list, or specify a name using an ${EXPRESSIONS}.`,
	};
}
