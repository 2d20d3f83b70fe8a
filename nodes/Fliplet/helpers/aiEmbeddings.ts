import { isObject } from './isObject';

export type Vector = number[] | string;

/**
 * The vectors of an embeddings response in input order (by `index`), or a reason the response
 * cannot be matched to the `count` inputs that were sent.
 */
export function vectorsFrom(
	response: unknown,
	count: number,
	encoding: 'float' | 'base64',
): Vector[] | string {
	if (!isObject(response) || !Array.isArray(response.data))
		return 'the response has no "data" list';
	if (response.data.length !== count)
		return `it holds ${response.data.length} vectors for ${count} inputs`;
	const vectors: Array<Vector | undefined> = new Array(count).fill(undefined);
	for (const [position, entry] of (response.data as unknown[]).entries()) {
		if (!isObject(entry)) return 'an entry of "data" is not an object';
		const index = entry.index === undefined ? position : entry.index;
		if (
			typeof index !== 'number' ||
			!Number.isInteger(index) ||
			index < 0 ||
			index >= count ||
			vectors[index]
		) {
			return `an entry has an unexpected index ${String(index)}`;
		}
		const { embedding } = entry;
		const valid =
			encoding === 'base64'
				? typeof embedding === 'string'
				: Array.isArray(embedding) && embedding.every((value) => typeof value === 'number');
		if (!valid)
			return `the embedding at index ${index} is not ${encoding === 'base64' ? 'a base64 string' : 'a list of numbers'}`;
		vectors[index] = embedding as Vector;
	}
	return vectors as Vector[];
}

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size)
		chunks.push(list.slice(start, start + size));
	return chunks;
}
