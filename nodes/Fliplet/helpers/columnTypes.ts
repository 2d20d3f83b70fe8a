import type { FieldType } from 'n8n-workflow';

import { isObject } from './isObject';

/** The mapper types a column's stored values can give; a column with mixed values gets none. */
export type ColumnType = Extract<FieldType, 'string' | 'number' | 'boolean' | 'object' | 'array'>;

const DECLARED: Record<string, ColumnType> = {
	string: 'string',
	text: 'string',
	number: 'number',
	integer: 'number',
	boolean: 'boolean',
	object: 'object',
	json: 'object',
	array: 'array',
};

function typeOfValue(value: unknown): ColumnType | undefined {
	if (typeof value === 'string') return 'string';
	if (typeof value === 'number') return Number.isFinite(value) ? 'number' : undefined;
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'array';
	if (isObject(value)) return 'object';
	return undefined;
}

/** A column definition's name and declared type: a plain name, or `{name, type}` when typed. */
export function columnDefinition(column: unknown): { name: string; type?: ColumnType } {
	if (isObject(column) && typeof column.name === 'string') {
		return { name: column.name, type: DECLARED[String(column.type ?? '').toLowerCase()] };
	}
	return { name: String(column) };
}

/** How many entries are read to learn what type each column holds. */
export const COLUMN_TYPE_SAMPLE = 100;

/**
 * A column's type as the sampled entries show it: the type every entry holding a value there
 * holds (empty values ignored), `mixed` when they differ, undefined when none holds a value.
 */
export function sampledColumnType(
	column: string,
	entryData: unknown[],
): ColumnType | 'mixed' | undefined {
	const seen = new Set<ColumnType | undefined>();
	for (const data of entryData) {
		if (!isObject(data)) continue;
		const value = data[column];
		if (value === null || value === undefined || value === '') continue;
		seen.add(typeOfValue(value));
	}
	if (!seen.size) return undefined;
	const [type] = seen;
	return seen.size === 1 && type ? type : 'mixed';
}

/**
 * Each column's type as the values stored in it show: a type only when every sampled entry that
 * holds a value there holds the same type (empty values ignored). Columns with no sampled value,
 * or mixed values, get none, so whatever the user gives is sent as given.
 */
export function sampledColumnTypes(
	columns: string[],
	entryData: unknown[],
): Record<string, ColumnType | undefined> {
	const types: Record<string, ColumnType | undefined> = {};
	for (const column of columns) {
		const type = sampledColumnType(column, entryData);
		types[column] = type === 'mixed' ? undefined : type;
	}
	return types;
}
