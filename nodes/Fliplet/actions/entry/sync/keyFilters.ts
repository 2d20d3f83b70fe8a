import type { IDataObject } from 'n8n-workflow';

/**
 * Entry fields a `where` may address instead of a column in one of its readings (see
 * docs/api-choices.md): a `$filters` column with such a name cannot be trusted to name the column.
 */
const ENTRY_FIELDS = new Set([
	'id',
	'createdAt',
	'updatedAt',
	'deletedAt',
	'dataSourceId',
	'order',
]);

/** Column names `$filters` and an aggregation read as they are (a dot or a leading $ means a path). */
export const plainColumn = (column: string) => !column.includes('.') && !column.startsWith('$');

/** Whether `$filters` name these key columns without doubt, in every reading of `where`. */
export const filterableColumns = (columns: string[]) =>
	columns.every((column) => plainColumn(column) && !ENTRY_FIELDS.has(column) && column !== 'data');

/** The parts of a key (see rowKey): one text per key column. */
export function keyParts(key: string, columnCount: number): string[] {
	return columnCount === 1 ? [key] : (JSON.parse(key) as string[]);
}

/**
 * A key part may be an object's JSON (rowKey writes objects so): `oneof` compares the text of a
 * stored object otherwise, so such a key is never looked up by `oneof`.
 */
export const mayBeObject = (part: string) => part.startsWith('{') || part.startsWith('[');

/**
 * Whether `oneof` can find an entry by this key of `columnCount` columns: no part may be an
 * object's JSON (the read by key, and the key-column memory's witness, hold to it).
 */
export const findableByKey = (key: string, columnCount: number) =>
	!keyParts(key, columnCount).some(mayBeObject);

/**
 * The spellings of a key part in a `oneof` list. The platform's `oneof` ignores case and compares
 * values either as text or by type: a stored 5 and a stored "5" both have the key "5", so both
 * are listed (and true beside "true"); the answer is a superset, narrowed with rowKey.
 */
export function spellingsOf(part: string): Array<string | number | boolean> {
	const spellings: Array<string | number | boolean> = [part];
	const number = Number(part);
	if (part !== '' && Number.isFinite(number) && String(number) === part) spellings.push(number);
	const lower = part.toLowerCase();
	if (lower === 'true' || lower === 'false') spellings.push(lower === 'true');
	return spellings;
}

/** The bytes a key's spellings add to a `oneof` list, about. */
export const keyBytes = (key: string) => 2 * key.length + 16;

/**
 * `$filters` matching at least every entry that holds one of `keys` (one `oneof` per key column,
 * all must match): a superset when keys are case-sensitive or span several columns, or when a
 * stored value only matches one of a key's spellings; the exact keys are told apart with rowKey.
 */
export function keyFilters(columns: string[], keys: Iterable<string>): IDataObject {
	const lists = columns.map(() => new Map<string, string | number | boolean>());
	for (const key of keys) {
		keyParts(key, columns.length).forEach((part, column) => {
			for (const spelling of spellingsOf(part))
				lists[column].set(`${typeof spelling}:${String(spelling)}`, spelling);
		});
	}
	return {
		$filters: columns.map((column, index) => ({
			column,
			condition: 'oneof',
			value: [...lists[index].values()],
		})),
	};
}
