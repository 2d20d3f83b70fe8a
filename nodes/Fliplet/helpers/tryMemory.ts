import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** What an earlier try of this node run did with one item. */
export type Remembered =
	| { outcome: 'done'; output: INodeExecutionData[] }
	| { outcome: 'unknown'; message: string };

interface TriesOfRun {
	inputs: unknown[];
	items: Map<number, Remembered>;
}

/**
 * n8n's Retry On Fail calls the node's execute again, in the same process, with the same execute
 * data and the same input items. A new execution, a later run of the node in a loop, or another
 * call of the node as an AI tool (which shares the agent's execute data) gets other objects. So
 * the memory is keyed on those objects, in WeakMaps: it lives exactly as long as the node run,
 * and nothing is kept across executions, whichever process runs them (queue mode included).
 */
const runs = new WeakMap<object, WeakMap<object, TriesOfRun>>();

function sameInputs(remembered: unknown[], inputs: unknown[]): boolean {
	return remembered.length === inputs.length && remembered.every((json, i) => json === inputs[i]);
}

/**
 * The outcomes, per item index, that the tries of this node run have recorded so far; empty on
 * the first try. Record into the map it returns.
 */
export function triesOfThisRun(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): Map<number, Remembered> {
	const executeData = context.getExecuteData?.();
	const inputs = items.map((item) => item.json);
	const first = inputs[0];
	if (!executeData || typeof first !== 'object' || first === null) return new Map();
	const byInput = runs.get(executeData) ?? new WeakMap<object, TriesOfRun>();
	runs.set(executeData, byInput);
	const known = byInput.get(first);
	if (known && sameInputs(known.inputs, inputs)) return known.items;
	const fresh: TriesOfRun = { inputs, items: new Map() };
	byInput.set(first, fresh);
	return fresh.items;
}
