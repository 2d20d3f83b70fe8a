import type { IDataObject } from 'n8n-workflow';

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

/**
 * A copy of the row with its top-level text values typecast. Built with fromEntries, not by
 * assignment: a column named __proto__ stays a key (refused before sending), not the prototype.
 */
export function typecastRow(data: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(data).map(([column, value]) => [column, typecastValue(value)]),
	) as IDataObject;
}
