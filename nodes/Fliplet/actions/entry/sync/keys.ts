import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../../helpers/isObject';

export type RowKey = { key: string } | { missing: string[] };

/**
 * JSON of a value with every object's keys in order, so that an object key matches the same
 * object whatever order its keys came in ({a: 1, b: 2} and {b: 2, a: 1}), as the comparison of
 * values does (see jsonEqual).
 */
function sortedJson(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		isObject(inner)
			? Object.fromEntries(
					Object.keys(inner)
						.sort()
						.map((key) => [key, inner[key]]),
				)
			: inner,
	);
}

function keyPart(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const text = (typeof value === 'object' ? sortedJson(value) : String(value)).trim();
	return text === '' ? undefined : text;
}

/**
 * The match key of a row: its key column values as text (so 5 and "5" match, and surrounding
 * spaces from a spreadsheet cell do not count), lower-cased when case is ignored. A row with an
 * empty key column has no key and reports which columns are missing.
 */
export function rowKey(data: IDataObject, columns: string[], ignoreCase: boolean): RowKey {
	if (columns.length === 1) {
		// The usual case, on every row and entry of a sync: no lists to build.
		const part = keyPart(data[columns[0]]);
		if (part === undefined) return { missing: columns.slice() };
		return { key: ignoreCase ? part.toLowerCase() : part };
	}
	const parts: string[] = [];
	const missing: string[] = [];
	for (const column of columns) {
		const part = keyPart(data[column]);
		if (part === undefined) missing.push(column);
		else parts.push(ignoreCase ? part.toLowerCase() : part);
	}
	if (missing.length) return { missing };
	return { key: parts.length === 1 ? parts[0] : JSON.stringify(parts) };
}
