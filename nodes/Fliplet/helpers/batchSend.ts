import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { chunkBy, describeItems } from './batch';
import { errorItem } from './mapItems';

export interface PreparedItem<P> {
	itemIndex: number;
	payload: P;
}

export interface BatchSendPlan<P> {
	/** What one item becomes, e.g. "email": used in error descriptions. */
	noun: string;
	/** What a request does to it, in the past tense (default "sent"), e.g. "created". */
	done?: string;
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

type SendError = Error & {
	description?: string | null;
	messages?: string[];
	context?: IDataObject;
	errorResponse?: JsonObject;
};

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

function mayHaveBeenSent(error: SendError): boolean {
	return error?.errorResponse?.mayHaveBeenProcessed === true;
}

/** Adds to a failed send's description which items went out, which may have, and how to retry safely. */
function explainFailure(
	error: SendError,
	plan: { noun: string; done?: string },
	failed: number[],
	sent: number[],
	notSent: number[],
): void {
	const { noun, done = 'sent' } = plan;
	const notes: string[] = [error.description ?? ''];
	if (mayHaveBeenSent(error)) {
		notes.push(
			`The ${noun} of ${describeItems(failed)} may already have been ${done}: it was NOT sent again automatically, as that could duplicate it. Check whether it ${done === 'sent' ? 'arrived' : `was ${done}`} before sending it again, and then run only the items that did not go through (with Settings → On Error → "Continue", each failed item comes out with its error so it can be retried on its own).`,
		);
	}
	if (sent.length)
		notes.push(
			`Already ${done} before this error: ${describeItems(sent)} — do not run them again.`,
		);
	if (notSent.length) notes.push(`Not ${done}: ${describeItems(notSent)}.`);
	error.description = notes.filter(Boolean).join(' ');
}

/**
 * Sends items one per request or grouped in batches. Every item is prepared (validated) first, so
 * bad input stops the node before anything is sent. Each output is paired with its input item; with
 * "Continue On Fail" a failed item (or every item of a failed batch) comes out as an error item.
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
	const outputs: INodeExecutionData[][] = items.map(() => []);
	const prepared: Array<PreparedItem<P>> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared.push({ itemIndex, payload: await plan.prepare(itemIndex) });
		} catch (error) {
			const safe = redactError(error as SendError, secrets);
			if (!this.continueOnFail()) throw safe;
			outputs[itemIndex].push(errorItem(safe, itemIndex));
		}
	}

	const sent: number[] = [];
	const groupKey = plan.groupBy ?? (() => '');
	const chunks = chunkBy(prepared, plan.batchSize, (entry) => groupKey(entry.payload));
	for (let c = 0; c < chunks.length; c++) {
		const group = chunks[c];
		const indexes = group.map((entry) => entry.itemIndex);
		try {
			const results = await plan.send(group);
			group.forEach((entry, i) => {
				outputs[entry.itemIndex].push({
					json: results[i] ?? {},
					pairedItem: { item: entry.itemIndex },
				});
			});
			sent.push(...indexes);
		} catch (error) {
			const safe = redactError(error as SendError, secrets);
			const notSent = chunks.slice(c + 1).flatMap((rest) => rest.map((entry) => entry.itemIndex));
			if (!this.continueOnFail()) {
				explainFailure(safe, plan, indexes, sent, notSent);
				throw safe;
			}
			explainFailure(safe, plan, indexes, [], []);
			for (const itemIndex of indexes) outputs[itemIndex].push(errorItem(safe, itemIndex));
		}
	}
	return outputs.flat();
}
