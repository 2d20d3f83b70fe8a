import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { chunkBy } from './batch';
import { errorItem } from './mapItems';
import { SendLedger, type SendError, type SendOncePlan } from './sendLedger';

export interface PreparedItem<P> {
	itemIndex: number;
	payload: P;
}

export interface BatchSendPlan<P> extends SendOncePlan {
	/** Builds and validates one item's payload; throws before anything is sent. */
	prepare: (itemIndex: number) => Promise<P>;
	/** Items per request; 1 sends one request per item. */
	batchSize: number;
	/** Sends one request for the given items and returns one output per item, in order. */
	send: (items: Array<PreparedItem<P>>) => Promise<IDataObject[]>;
	/** Items with different keys never share a request (e.g. notifications of different apps). */
	groupBy?: (payload: P) => string;
	/** Values that must never appear in an error (e.g. a provider's auth token). */
	secrets?: string[];
}

function redactText(text: string, secrets: string[]): string {
	return secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** Removes every secret from what an error shows: message, description and the API response. */
export function redactError(error: SendError, secrets: string[]): SendError {
	const usable = secrets.filter((secret) => secret.length >= 4);
	if (!usable.length || !error || typeof error !== 'object') return error;
	error.message = redactText(String(error.message ?? ''), usable);
	if (error.description) error.description = redactText(error.description, usable);
	if (Array.isArray(error.messages))
		error.messages = error.messages.map((m) => redactText(m, usable));
	if (error.errorResponse)
		error.errorResponse = JSON.parse(redactText(JSON.stringify(error.errorResponse), usable));
	return error;
}

/**
 * Sends items one per request or grouped in batches. Every item is prepared (validated) first, so
 * bad input stops the node before anything is sent. Each output is paired with its input item; with
 * "Continue On Fail" a failed item (or every item of a failed batch) comes out as an error item.
 * Under n8n's Retry On Fail, what an earlier try sent, or may have sent, is not sent again.
 */
export async function sendInBatches<P>(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	plan: BatchSendPlan<P>,
): Promise<INodeExecutionData[]> {
	if (!Number.isInteger(plan.batchSize) || plan.batchSize < 1) {
		throw new NodeOperationError(this.getNode(), 'Batch Size is not a whole number of at least 1', {
			itemIndex: 0,
			description: 'Give how many items go in one request, e.g. 50.',
		});
	}
	const secrets = plan.secrets ?? [];
	const ledger = new SendLedger(this, items, plan);
	const outputs: INodeExecutionData[][] = items.map(() => []);
	const fail = (error: SendError, itemIndex: number) => {
		if (!this.continueOnFail()) throw ledger.report(error);
		outputs[itemIndex].push(errorItem(error, itemIndex));
	};
	const prepared: Array<PreparedItem<P>> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const earlier = ledger.earlier(itemIndex);
		if (earlier?.outcome === 'done') outputs[itemIndex] = ledger.replay(itemIndex);
		else if (earlier) fail(ledger.notAgain(itemIndex), itemIndex);
		else {
			try {
				prepared.push({ itemIndex, payload: await plan.prepare(itemIndex) });
			} catch (error) {
				fail(redactError(error as SendError, secrets), itemIndex);
			}
		}
	}

	const groupKey = plan.groupBy ?? (() => '');
	for (const group of chunkBy(prepared, plan.batchSize, (entry) => groupKey(entry.payload))) {
		const indexes = group.map((entry) => entry.itemIndex);
		try {
			const results = await plan.send(group);
			const sent = group.map((entry, i) => [
				{ json: results[i] ?? {}, pairedItem: { item: entry.itemIndex } },
			]);
			ledger.sent(indexes, sent);
			indexes.forEach((itemIndex, i) => (outputs[itemIndex] = sent[i]));
		} catch (error) {
			const safe = redactError(error as SendError, secrets);
			ledger.failed(indexes, safe);
			if (!this.continueOnFail()) throw ledger.report(safe);
			ledger.explainUnknown(safe, indexes);
			for (const itemIndex of indexes) outputs[itemIndex].push(errorItem(safe, itemIndex));
		}
	}
	return outputs.flat();
}
