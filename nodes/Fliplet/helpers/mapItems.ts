import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

type ItemError = Error & { context?: IDataObject; description?: string | null };

function tagWithItem(error: ItemError, itemIndex: number): ItemError {
	if (error && typeof error === 'object') {
		error.context = error.context ?? {};
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	}
	return error;
}

/**
 * Runs `handler` once per input item and pairs what it returns with that item. With "Continue On
 * Fail" a failing item becomes `{ error }` on the output and the rest go on; otherwise the error
 * stops the node, tagged with its item index.
 */
export async function mapItemsToExecutionData(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const results = await handler(itemIndex);
			for (const result of results) output.push({ ...result, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (this.continueOnFail()) {
				output.push(errorItem(error as ItemError, itemIndex));
				continue;
			}
			throw tagWithItem(error as ItemError, itemIndex);
		}
	}
	return output;
}

/** As mapItemsToExecutionData, for handlers that return plain JSON (one object or a list). */
export async function mapItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	return await mapItemsToExecutionData.call(this, items, async (itemIndex) => {
		const result = await handler(itemIndex);
		return (Array.isArray(result) ? result : [result]).map((json) => ({ json }));
	});
}

export function errorItem(error: ItemError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, pairedItem: { item: itemIndex } };
}
