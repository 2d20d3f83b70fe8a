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

/** A copy of the row with its top-level text values typecast. */
export function typecastRow(data: IDataObject): IDataObject {
	const result: IDataObject = {};
	for (const [column, value] of Object.entries(data))
		result[column] = typecastValue(value) as IDataObject[string];
	return result;
}
