import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** An optional date parameter as the ISO 8601 UTC string the API expects; refused if unreadable. */
export function isoDate(
	node: INode,
	value: unknown,
	label: string,
	itemIndex?: number,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const ms = Date.parse(String(value));
	if (Number.isNaN(ms)) {
		throw new NodeOperationError(node, `${label}: "${String(value)}" is not a date`, {
			itemIndex,
			description: 'Give an ISO 8601 date such as 2026-01-31 or 2026-01-31T14:00:00Z, or pick one.',
		});
	}
	return new Date(ms).toISOString();
}

/** Optional start and end dates as ISO strings, refused when the period ends before it starts. */
export function isoDateRange(
	node: INode,
	start: unknown,
	end: unknown,
	itemIndex?: number,
): { startDate?: string; endDate?: string } {
	const startDate = isoDate(node, start, 'Start Date', itemIndex);
	const endDate = isoDate(node, end, 'End Date', itemIndex);
	if (startDate && endDate && startDate > endDate) {
		throw new NodeOperationError(node, `Start Date ${startDate} is after End Date ${endDate}`, {
			itemIndex,
			description: 'Swap the two dates, or leave one of them empty.',
		});
	}
	return { startDate, endDate };
}
