import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mayHoldUnsafeKey } from './unsafeKeys';

/**
 * A JSON request body serialized once: sent as these bytes (retries and redirects re-send them),
 * and walked for unsafe keys only when its text names one. A caller may build it ahead of its
 * request, e.g. the next commit of a large Sync while the one before is on its way.
 */
export class JsonBody {
	readonly bytes: Buffer;
	readonly mayHoldUnsafeKey: boolean;
	/**
	 * The value, kept only when its text names an unsafe key (to be walked): bodies on their way
	 * (several commits of a large Sync) do not also hold the objects they were built from.
	 */
	readonly value?: IDataObject | IDataObject[];

	constructor(value: IDataObject | IDataObject[], text: string) {
		this.mayHoldUnsafeKey = mayHoldUnsafeKey(text);
		if (this.mayHoldUnsafeKey) this.value = value;
		this.bytes = Buffer.from(text);
	}
}

/**
 * The body of a request as JSON, or an error saying that JSON cannot carry a value (an object that
 * contains itself) and how to fix it: nothing is sent.
 */
export function jsonBodyOf(
	context: { getNode(): INode },
	value: IDataObject | IDataObject[],
	itemIndex?: number,
): JsonBody {
	let text: string;
	try {
		text = JSON.stringify(value);
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`The data cannot be sent as JSON: ${(error as Error).message}`,
			{
				itemIndex,
				description:
					'JSON, what the API reads, cannot hold that value (an object that contains itself, for instance). Change it, e.g. with an Edit Fields node. Nothing was sent.',
			},
		);
	}
	return new JsonBody(value, text);
}
