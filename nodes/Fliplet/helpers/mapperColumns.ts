import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, validateFieldType } from 'n8n-workflow';

import type { ColumnType } from './columnTypes';
import { typesText, valueForColumn } from './spreadsheetText';

const MAPPER_TYPES = new Set<string>(['string', 'number', 'boolean', 'object', 'array']);

/**
 * The column types the column mapper sampled when the node was set up (its value's `schema`, see
 * methods/resourceMapping): they type the values mapped there, and spreadsheet text even when a
 * run reads no entry holding a value in the column.
 */
export function mapperColumnTypes(this: IExecuteFunctions): ReadonlyMap<string, ColumnType> {
	// The schema is the node's, read at item 0: one map serves every item of the run.
	const known = typesOfRun.get(this);
	if (known) return known;
	const schema = this.getNodeParameter('columns.schema', 0, []) as unknown;
	const types = new Map<string, ColumnType>();
	typesOfRun.set(this, types);
	if (!Array.isArray(schema)) return types;
	for (const field of schema as Array<{ id?: unknown; type?: unknown }>) {
		if (typeof field?.id === 'string' && MAPPER_TYPES.has(String(field.type)))
			types.set(field.id, field.type as ColumnType);
	}
	return types;
}

/** The mapper's column types per run (execution context), read once. */
const typesOfRun = new WeakMap<IExecuteFunctions, Map<string, ColumnType>>();

/**
 * A mapped value as its column holds values. In a column of numbers or booleans it follows the
 * spreadsheet rule (see valueForColumn): "40" becomes 40, while "007", "1e5", "", a 20-digit id
 * or other text is written as given. In an object or array column, JSON text becomes the object
 * or list, as n8n makes it; anything else is refused there, naming the column.
 */
function mappedValue(
	this: IExecuteFunctions,
	column: string,
	value: unknown,
	type: ColumnType | undefined,
	itemIndex: number,
): unknown {
	if (type === undefined || type === 'string' || typesText(type))
		return valueForColumn(value, type);
	const checked = validateFieldType(column, value, type);
	if (checked.valid) return checked.newValue ?? value;
	throw new NodeOperationError(this.getNode(), `Invalid value for column "${column}"`, {
		itemIndex,
		description: `${checked.errorMessage ?? `"${column}" holds ${type}s`}. Give it as JSON (e.g. ${type === 'object' ? '{"city": "Rome"}' : '["a", "b"]'}), or refresh the column list if the column now holds other values. Nothing was sent for this item.`,
	});
}

/**
 * The values mapped one by one under "Columns" (Map Each Column Manually), each typed by its
 * column (see mappedValue). They are read as the expressions give them, without n8n's own typing
 * of a mapper's values, which in a column its sample saw holding numbers turns "007" into 7, ""
 * into 0 and a 20-digit id into another number, drops a null, and refuses other text.
 */
export function mappedColumns(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const given = (this.getNodeParameter('columns.value', itemIndex, {}, { skipValidation: true }) ??
		{}) as IDataObject;
	const types = mapperColumnTypes.call(this);
	// Built with fromEntries, not by assignment: a column named __proto__ stays a key (refused
	// before sending), not the prototype.
	return Object.fromEntries(
		Object.entries(given).map(([column, value]) => [
			column,
			mappedValue.call(this, column, value, types.get(column), itemIndex),
		]),
	) as IDataObject;
}
