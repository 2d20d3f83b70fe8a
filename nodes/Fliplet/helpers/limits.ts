import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Infinity when "Return All" is on, else the "Limit" field, refused unless a whole number ≥ 1. */
export function maxResults(this: IExecuteFunctions, itemIndex: number): number {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return Infinity;
	const raw = this.getNodeParameter('limit', itemIndex, 50) as unknown;
	// An expression may hand over a numeric string; anything else is not a limit.
	const limit = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(
			this.getNode(),
			`Limit: ${JSON.stringify(raw) ?? String(raw)} is not a whole number of at least 1`,
			{
				itemIndex,
				description: 'Give how many results to return, e.g. 50, or turn on Return All.',
			},
		);
	}
	return limit;
}

export function takeFirst<T>(list: T[], max: number): T[] {
	return Number.isFinite(max) ? list.slice(0, max) : list;
}
