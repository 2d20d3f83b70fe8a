import { NodeError } from 'n8n-workflow';

/**
 * An error of an AI sub-node (the Chat Model, the Embeddings) as n8n shows one: "Error in sub-node
 * <name>", on the sub-node, whichever root node was running it.
 */
export function asSubNodeError<T>(error: T): T {
	if (error instanceof NodeError) error.functionality = 'configuration-node';
	return error;
}
