import type { ColumnType } from './columnTypes';

/**
 * A spreadsheet cell's text as the number or boolean it stands for. Only exact round trips become
 * numbers, so nothing is lost: "42" and "-3.5" convert, while "007", "1.50", "1e3", " 4" and
 * digits beyond double precision (ids, phone numbers) stay text. "true"/"false" in any case
 * become booleans. Everything else, including "", is kept as it is.
 */
export function typecastValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const lower = value.toLowerCase();
	if (lower === 'true') return true;
	if (lower === 'false') return false;
	if (/^-?\d+(\.\d+)?$/.test(value)) {
		const number = Number(value);
		if (String(number) === value) return number;
	}
	return value;
}

/** Whether text written into a column of this type becomes a number or a boolean. */
export const typesText = (type: ColumnType | undefined) => type === 'number' || type === 'boolean';

/**
 * A cell as its column's values are stored: in a column of numbers, text that is exactly a number
 * ("34", not "007" or "1e5") becomes that number; in a column of booleans, "true"/"false" in any
 * case become booleans. Other values, and any value of another column, stay as given.
 */
export function valueForColumn(value: unknown, type: ColumnType | undefined): unknown {
	if (typeof value !== 'string' || !typesText(type)) return value;
	const typed = typecastValue(value);
	return typeof typed === type ? typed : value;
}
