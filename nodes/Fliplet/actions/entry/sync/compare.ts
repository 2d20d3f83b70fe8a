import { hash } from 'crypto';
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

/** 48 bits of the MD5 of a text: a plain number, far smaller in memory than the text. */
const hashOf = (text: string) => hash('md5', text, 'buffer').readUIntBE(0, 6);

const digestOf = (value: unknown) => hashOf(stableJson(value));

/**
 * The digest of `data`'s values in `columns` (sorted), equal to digestOf of those columns picked
 * into an object, without building that object or sorting keys per row: a large sync digests
 * every entry and every row.
 */
function columnsDigest(columns: string[]): (data: IDataObject) => number {
	const names = columns.map((column) => `${JSON.stringify(column)}:`);
	return (data) => {
		let text = '{';
		for (let i = 0; i < columns.length; i++) {
			const value = data[columns[i]];
			if (value === undefined) continue;
			if (text.length > 1) text += ',';
			text += names[i];
			text +=
				typeof value === 'object' && value !== null
					? stableJson(value)
					: (JSON.stringify(value) ?? 'null');
		}
		return hashOf(text + '}');
	};
}

/** Whether two key lists are the same in the same order (rows from one source usually are). */
function sameKeys(a: string[], b: string[] | undefined): boolean {
	if (!b || a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
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
	let previous: string[] | undefined;
	for (const row of rows) {
		const keys = Object.keys(row);
		if (sameKeys(keys, previous)) continue;
		previous = keys;
		const columns = keys.slice().sort();
		const signature = columns.join('\u0000');
		if (!shapes.has(signature)) shapes.set(signature, columns);
		if (shapes.size > MAX_ROW_SHAPES) return compareData;
	}
	const columnSets = [...shapes.values()];
	const digests = columnSets.map(columnsDigest);
	const shapeIndex = new Map([...shapes.keys()].map((signature, index) => [signature, index]));
	// The shape of the last row compared, by its keys in their own order.
	let lastKeys: string[] | undefined;
	let lastShape: number | undefined;
	const shapeOf = (row: IDataObject) => {
		const keys = Object.keys(row);
		if (!sameKeys(keys, lastKeys)) {
			lastKeys = keys;
			lastShape = shapeIndex.get(keys.slice().sort().join('\u0000'));
		}
		return lastShape;
	};
	return {
		digest: (data) =>
			digests.length === 1 ? digests[0](data) : digests.map((digestFor) => digestFor(data)),
		isChanged: (digest, row) => {
			const index = shapeOf(row);
			if (index === undefined) return true;
			return (Array.isArray(digest) ? digest[index] : digest) !== digests[index](row);
		},
	};
}
