import type { InputRows } from './diff';

/** Past this many columns, asking for each one costs more than reading whole rows. */
const MAX_NAMED_ATTRIBUTES = 100;

/**
 * The attributes the diff needs: when updates merge columns only the input's columns are compared,
 * so only those are read; when rows replace the data, the whole data of each entry is needed.
 */
export function attributesFor(rows: InputRows, keyColumns: string[], merge: boolean): string[] {
	if (!merge) return ['id', 'data'];
	const columns = new Set(keyColumns);
	for (const row of rows) for (const column in row) columns.add(column);
	const named = [...columns];
	// A dot in a column name would be read as a nested path.
	if (named.length > MAX_NAMED_ATTRIBUTES || named.some((column) => column.includes('.')))
		return ['id', 'data'];
	return ['id', ...named.map((column) => `data.${column}`)];
}
