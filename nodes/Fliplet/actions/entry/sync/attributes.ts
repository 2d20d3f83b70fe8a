import type { InputRows } from './diff';
import type { SyncSettings } from './settings';

/** Past this many columns, asking for each one costs more than reading whole rows. */
const MAX_NAMED_ATTRIBUTES = 100;

/**
 * The columns a read of the data source asks for by name, or `all` for whole entries (sent with
 * no `attributes`, which every reading of the column names takes alike).
 */
export type ReadColumns = string[] | 'all';

/** The named columns, or whole rows when naming them costs more or is ambiguous. */
function named(columns: Iterable<string>): ReadColumns {
	const list = [...columns];
	// A dot in a column name would be read as a nested path.
	if (list.length > MAX_NAMED_ATTRIBUTES || list.some((column) => column.includes('.')))
		return 'all';
	return list;
}

/**
 * The columns the diff needs: the key (and timestamp) columns; when updates merge columns, also
 * the input's columns, which are compared; when rows replace the data, the whole data of each
 * entry. Updating every matched row compares nothing, so only the keys are read.
 */
export function columnsFor(rows: InputRows, settings: SyncSettings): ReadColumns {
	const columns = new Set(settings.keyColumns);
	if (settings.timestampColumn !== undefined) columns.add(settings.timestampColumn);
	if (settings.updateAll) return named(columns);
	if (!settings.merge) return 'all';
	for (const row of rows) for (const column in row) columns.add(column);
	return named(columns);
}
