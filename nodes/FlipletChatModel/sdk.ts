import type { getParametersJsonSchema, supplyModel } from '@n8n/ai-node-sdk';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface AiNodeSdk {
	supplyModel: typeof supplyModel;
	getParametersJsonSchema: typeof getParametersJsonSchema;
}

/**
 * n8n's AI node SDK, loaded only when a model is supplied: n8n 1.x does not ship it, and the rest
 * of the package must still load there.
 */
export async function loadAiNodeSdk(node: INode, itemIndex: number): Promise<AiNodeSdk> {
	try {
		return await import('@n8n/ai-node-sdk');
	} catch (error) {
		throw new NodeOperationError(node, 'This n8n has no AI node SDK (@n8n/ai-node-sdk)', {
			itemIndex,
			description: `The Fliplet Chat Model needs n8n 2.x, which ships the SDK for community AI nodes. Update n8n, or use the Fliplet node's AI → Generate Text operation instead. (${(error as Error).message})`,
		});
	}
}
