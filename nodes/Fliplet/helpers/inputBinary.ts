import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { excerpt } from './excerpt';

/**
 * Whether the item has a binary property of that name of its own. n8n's own check looks the name
 * up as on any object, so "__proto__", "constructor" or "toString" would pass it (they are found
 * on every object) and fail later with an internal error.
 */
export function hasOwnBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	property: string,
): boolean {
	const binary = context.getInputData()[itemIndex]?.binary;
	return binary !== undefined && Object.prototype.hasOwnProperty.call(binary, property);
}

/** The item's binary property named in `field`, or an error saying how to name one it has. */
export function inputBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	property: string,
	field: string,
): IBinaryData {
	if (!hasOwnBinary(context, itemIndex, property)) {
		throw new NodeOperationError(
			context.getNode(),
			`The item has no binary property "${excerpt(property)}" (${field})`,
			{
				itemIndex,
				description: `Give the name of a binary property this item has (see its Binary tab), e.g. data, in "${field}".`,
			},
		);
	}
	return context.helpers.assertBinaryData(itemIndex, property);
}
