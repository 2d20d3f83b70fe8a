import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from './isObject';

export type Vector = number[] | string;

/** Embedding models whose vector length is fixed: the API refuses `dimensions` for them. */
const FIXED_LENGTH_MODELS = /^text-embedding-ada-/i;

/** Refuses Dimensions for a model whose vectors have a fixed length, before anything is sent. */
export function assertTakesDimensions(node: INode, model: string, itemIndex: number): void {
	if (!FIXED_LENGTH_MODELS.test(model)) return;
	throw new NodeOperationError(
		node,
		`The model ${model} does not take "Dimensions": its vectors have a fixed length`,
		{
			itemIndex,
			description:
				'Remove the Dimensions option, or pick a model that takes it (text-embedding-3-small, text-embedding-3-large). Stored and query vectors must use the same model and dimensions.',
		},
	);
}

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
