import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeItems } from './batch';
import { triesOfThisRun, type Remembered } from './tryMemory';

/** What the node does to an item that must never happen twice (email, token, publish...). */
export interface SendOncePlan {
	/** What one item becomes, e.g. "email": used in error descriptions. */
	noun: string;
	/** What a request does to it, in the past tense (default "sent"), e.g. "created". */
	done?: string;
	/** What an error keeps of an item's output (default: all of it), e.g. only the ids of a large answer. */
	keep?: (output: IDataObject) => IDataObject;
}

export type SendError = Error & {
	description?: string | null;
	messages?: string[];
	context?: IDataObject;
	errorResponse?: JsonObject;
};

/** The field that marks an output replayed from an earlier try of the same node run. */
export const FROM_EARLIER_TRY = 'fromEarlierTry';

export function mayHaveBeenProcessed(error: SendError): boolean {
	return error?.errorResponse?.mayHaveBeenProcessed === true;
}

/**
 * What this node run did with each item, across n8n's Retry On Fail tries: items sent (with their
 * outputs) and items that may have been. A retry never sends those again: it replays the outputs
 * of the items that went out, and fails the items of unknown outcome as the first try did. When
 * the node stops, the error says what every item of the run came to.
 */
export class SendLedger {
	private readonly items: Map<number, Remembered>;

	private readonly done: string;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly inputs: INodeExecutionData[],
		private readonly plan: SendOncePlan,
	) {
		this.items = triesOfThisRun(context, inputs);
		this.done = plan.done ?? 'sent';
	}

	/** What an earlier try did with this item, if it sent it or may have. */
	earlier(itemIndex: number): Remembered | undefined {
		return this.items.get(itemIndex);
	}

	/** Records that these items went out, with the output of each (in the same order). */
	sent(itemIndexes: number[], outputs: INodeExecutionData[][]): void {
		itemIndexes.forEach((itemIndex, i) =>
			this.items.set(itemIndex, { outcome: 'done', output: outputs[i] ?? [] }),
		);
	}

	/** Records a failed request: its items may have gone out when its answer was lost. */
	failed(itemIndexes: number[], error: SendError): void {
		if (!mayHaveBeenProcessed(error)) return;
		for (const itemIndex of itemIndexes) {
			this.items.set(itemIndex, { outcome: 'unknown', message: String(error.message ?? '') });
		}
	}

	/** The outputs an earlier try made for an item it sent, marked as not sent again. */
	replay(itemIndex: number): INodeExecutionData[] {
		const earlier = this.items.get(itemIndex);
		if (earlier?.outcome !== 'done') return [];
		return earlier.output.map((output) => ({
			...output,
			json: { ...output.json, [FROM_EARLIER_TRY]: true },
		}));
	}

	/** The error of an item an earlier try may have sent: it is not sent again. */
	notAgain(itemIndex: number): NodeOperationError {
		const earlier = this.items.get(itemIndex);
		const cause = earlier?.outcome === 'unknown' ? earlier.message : 'its outcome is unknown';
		return new NodeOperationError(
			this.context.getNode(),
			`Item ${itemIndex}: the ${this.plan.noun} may already have been ${this.done} by an earlier try of this node (Retry On Fail), so it was not ${this.done} again`,
			{ itemIndex, description: `That try failed with: ${cause.replace(/\.$/, '')}.` },
		);
	}

	/** Adds to a failed request's description that its items may have gone out, and were not re-sent. */
	explainUnknown(error: SendError, itemIndexes: number[]): void {
		if (mayHaveBeenProcessed(error)) this.addUnknownNote(error, itemIndexes);
	}

	private addUnknownNote(error: SendError, itemIndexes: number[]): void {
		const { noun } = this.plan;
		const { done } = this;
		const note = `The ${noun} of ${describeItems(itemIndexes)} may already have been ${done}: it was NOT sent again automatically, as that could duplicate it. Check whether it ${done === 'sent' ? 'arrived' : `was ${done}`} before sending it again, and then run only the items that did not go through (with Settings → On Error → "Continue", each failed item comes out with its error so it can be retried on its own).`;
		error.description = [error.description ?? '', note].filter(Boolean).join(' ');
	}

	/**
	 * The error that stops the node, with what each item came to: sent (with ids in the description
	 * and outputs in the error's data), may have been sent, or not sent.
	 */
	report<E extends SendError>(error: E): E {
		const byOutcome = { done: [] as number[], unknown: [] as number[], not: [] as number[] };
		const outcomes: IDataObject[] = [];
		for (let itemIndex = 0; itemIndex < this.inputs.length; itemIndex++) {
			const item = this.items.get(itemIndex);
			if (item?.outcome === 'done') {
				byOutcome.done.push(itemIndex);
				const keep = this.plan.keep ?? ((output: IDataObject) => output);
				const output = item.output.map(({ json }) => keep(json));
				outcomes.push({ item: itemIndex, outcome: this.done, ...(output.length && { output }) });
			} else if (item?.outcome === 'unknown') {
				byOutcome.unknown.push(itemIndex);
				outcomes.push({ item: itemIndex, outcome: `may have been ${this.done}` });
			} else {
				byOutcome.not.push(itemIndex);
				outcomes.push({ item: itemIndex, outcome: `not ${this.done}` });
			}
		}
		if (!byOutcome.done.length && !byOutcome.unknown.length) return error;
		if (byOutcome.unknown.length) this.addUnknownNote(error, byOutcome.unknown);
		const notes = [error.description ?? ''];
		if (byOutcome.done.length) {
			notes.push(
				`Already ${this.done} before this error: ${this.withIds(byOutcome.done)} — do not run them again.`,
			);
		}
		if (byOutcome.not.length) notes.push(`Not ${this.done}: ${describeItems(byOutcome.not)}.`);
		error.description = notes.filter(Boolean).join(' ');
		error.context = error.context ?? {};
		const data = error.context.data;
		error.context.data = { ...(typeof data === 'object' && data ? data : {}), outcomes };
		return error;
	}

	/** "items 0–1 (ids 101, 102)": the ids of what they created, when their outputs have one. */
	private withIds(itemIndexes: number[]): string {
		const ids = itemIndexes.flatMap((itemIndex) => {
			const item = this.items.get(itemIndex);
			const id = item?.outcome === 'done' ? item.output[0]?.json?.id : undefined;
			return typeof id === 'number' || typeof id === 'string' ? [String(id)] : [];
		});
		if (!ids.length) return describeItems(itemIndexes);
		return `${describeItems(itemIndexes)} (${ids.length === 1 ? 'id' : 'ids'} ${ids.join(', ')})`;
	}
}
