import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** A caught failure as n8n's node error (API errors stay as they are), tagged with its item. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The HTTP status the Fliplet API answered with a failure ('' for a failure without one). */
export function httpStatusOf(error: unknown): string {
	return String((error as { httpCode?: unknown } | null)?.httpCode ?? '');
}
