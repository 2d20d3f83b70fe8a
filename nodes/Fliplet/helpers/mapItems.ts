import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { SendLedger, type SendOncePlan } from './sendLedger';

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
	return await runItems.call(this, items, handler);
}

/**
 * As mapItemsToExecutionData, for operations that send, publish or create: a Retry On Fail try
 * replays what an earlier try of the run did instead of doing it again, and the error that stops
 * the node says what the items before it did.
 */
export async function mapItemsToExecutionDataOnce(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	once: SendOncePlan,
	handler: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	return await runItems.call(this, items, handler, once);
}

/** As mapItemsToExecutionData, for handlers that return plain JSON (one object or a list). */
export async function mapItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	return await runItems.call(this, items, asExecutionData(handler));
}

/** As mapItemsToExecutionDataOnce, for handlers that return plain JSON (one object or a list). */
export async function mapItemsOnce(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	once: SendOncePlan,
	handler: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	return await runItems.call(this, items, asExecutionData(handler), once);
}

function asExecutionData(
	handler: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): (itemIndex: number) => Promise<INodeExecutionData[]> {
	return async (itemIndex) => {
		const result = await handler(itemIndex);
		return (Array.isArray(result) ? result : [result]).map((json) => ({ json }));
	};
}

async function runItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<INodeExecutionData[]>,
	once?: SendOncePlan,
): Promise<INodeExecutionData[]> {
	const ledger = once && new SendLedger(this, items, once);
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const earlier = ledger?.earlier(itemIndex);
		if (ledger && earlier?.outcome === 'done') {
			output.push(...ledger.replay(itemIndex));
			continue;
		}
		try {
			if (ledger && earlier) throw ledger.notAgain(itemIndex);
			const results = (await handler(itemIndex)).map((result) => ({
				...result,
				pairedItem: { item: itemIndex },
			}));
			ledger?.sent([itemIndex], [results]);
			output.push(...results);
		} catch (error) {
			ledger?.failed([itemIndex], error as ItemError);
			if (this.continueOnFail()) {
				output.push(errorItem(error as ItemError, itemIndex));
				continue;
			}
			const tagged = tagWithItem(error as ItemError, itemIndex);
			throw ledger ? ledger.report(tagged) : tagged;
		}
	}
	return output;
}

export function errorItem(error: ItemError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, pairedItem: { item: itemIndex } };
}
