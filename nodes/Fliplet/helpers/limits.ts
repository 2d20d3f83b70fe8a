import type { IExecuteFunctions } from 'n8n-workflow';

/** Infinity when "Return All" is on, else the "Limit" field. */
export function maxResults(this: IExecuteFunctions, itemIndex: number): number {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
}

export function takeFirst<T>(list: T[], max: number): T[] {
	return Number.isFinite(max) ? list.slice(0, max) : list;
}
