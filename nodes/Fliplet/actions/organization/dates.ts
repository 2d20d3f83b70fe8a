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
