import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from './isObject';

/**
 * The list under `key` (`{apps: [...]}`), or the body itself when the API returns a bare array.
 * Anything else is reported rather than guessed at.
 */
export function listFrom(
	node: INode,
	body: unknown,
	key: string,
	itemIndex?: number,
): IDataObject[] {
	if (isObject(body) && Array.isArray(body[key])) return body[key] as IDataObject[];
	if (Array.isArray(body)) return body as IDataObject[];
	throw new NodeOperationError(node, `Unexpected response from Fliplet: no "${key}" list in it`, {
		itemIndex,
		description:
			'The API answered in a shape this node does not know. Please report it with the response.',
	});
}

/**
 * The object under `key` (`{notification: {...}}`), or the body itself when it is the object.
 * An empty body becomes `fallback` (for endpoints documented to answer with no body).
 */
export function objectFrom(body: unknown, key: string, fallback: IDataObject = {}): IDataObject {
	if (isObject(body) && isObject(body[key])) return body[key] as IDataObject;
	if (isObject(body) && Object.keys(body).length > 0) return body;
	return fallback;
}
