import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Stops on a bad item: the message is prefixed with the item's index, the description says how to fix it. */
export function refuseItem(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): never {
	throw new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${message}`, {
		itemIndex,
		description,
	});
}
