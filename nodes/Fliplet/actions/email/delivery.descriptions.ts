import type { INodeProperties } from 'n8n-workflow';

/** How many sends go in one request: shared by the email and SMS Send operations. */
export function batchFields(noun: 'email' | 'SMS'): INodeProperties[] {
	return [
		{
			displayName: 'Send in Batches',
			name: 'sendInBatches',
			type: 'boolean',
			default: false,
			description: `Whether to group the input items into batch requests (one ${noun} per item, several per request) instead of one request per item. Batches use far fewer requests of the rate limit (20 per 30 seconds).`,
		},
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1000 },
			default: 50,
			description: `Max number of ${noun} messages per batch request`,
			displayOptions: { show: { sendInBatches: [true] } },
		},
	];
}

export interface BatchSettings {
	batched: boolean;
	batchSize: number;
}

export function readBatchSettings(
	getParameter: (name: string, fallback: unknown) => unknown,
): BatchSettings {
	const batched = getParameter('sendInBatches', false) === true;
	return { batched, batchSize: batched ? Number(getParameter('batchSize', 50)) : 1 };
}
