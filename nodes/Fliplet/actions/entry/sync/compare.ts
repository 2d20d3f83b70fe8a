import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { jsonEqual } from './equal';

/** JSON text with object keys sorted and undefined members left out: equal text ⇔ jsonEqual. */
export function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const object = value as Record<string, unknown>;
		const members = Object.keys(object)
			.filter((key) => object[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableJson(object[key])}`);
		return `{${members.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** 48 bits of the MD5 of the stable JSON: a plain number, far smaller in memory than the text. */
const digestOf = (value: unknown) =>
	createHash('md5').update(stableJson(value)).digest().readUIntBE(0, 6);

function pick(data: IDataObject, columns: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const column of columns) if (data[column] !== undefined) picked[column] = data[column];
	return picked;
}

/** What is kept of an existing entry to tell whether a row changes it. */
export type EntryDigest = number | number[] | IDataObject;

export interface Comparer {
	digest(data: IDataObject): EntryDigest;
	isChanged(digest: EntryDigest, row: IDataObject): boolean;
}

/** Rows with this many different sets of columns are compared on the entries' data itself. */
const MAX_ROW_SHAPES = 4;

const compareData: Comparer = {
	digest: (data) => data,
	isChanged: (digest, row) =>
		Object.keys(row).some((column) => !jsonEqual((digest as IDataObject)[column], row[column])),
};

/**
 * How rows are compared with entries. Entries are kept as a digest of what the rows compare
 * (their whole data when rows replace it; the rows' columns when rows merge into it) instead of
 * their data, so a large data source is diffed in a fraction of its size in memory.
 */
export function comparerFor(rows: IDataObject[], merge: boolean): Comparer {
	if (!merge) return { digest: digestOf, isChanged: (digest, row) => digest !== digestOf(row) };

	const shapes = new Map<string, string[]>();
	for (const row of rows) {
		const columns = Object.keys(row).sort();
		const signature = columns.join('\u0000');
		if (!shapes.has(signature)) shapes.set(signature, columns);
		if (shapes.size > MAX_ROW_SHAPES) return compareData;
	}
	const columnSets = [...shapes.values()];
	const shapeIndex = new Map([...shapes.keys()].map((signature, index) => [signature, index]));
	const digestFor = (data: IDataObject, columns: string[]) => digestOf(pick(data, columns));
	return {
		digest: (data) =>
			columnSets.length === 1
				? digestFor(data, columnSets[0])
				: columnSets.map((columns) => digestFor(data, columns)),
		isChanged: (digest, row) => {
			const columns = Object.keys(row).sort();
			const index = shapeIndex.get(columns.join('\u0000'));
			if (index === undefined) return true;
			return (Array.isArray(digest) ? digest[index] : digest) !== digestFor(row, columns);
		},
	};
}
