import type { INodeParameters } from 'n8n-workflow';

import { FlipletEmbeddings } from '../../nodes/FlipletEmbeddings/FlipletEmbeddings.node';
import { PUBLISHED_APP } from '../ai/fixtures';
import {
	registerNodeType,
	runNode,
	sandboxCredential,
	type RunOptions,
	type Sandbox,
} from '../harness';
import { EmbeddingsUser } from './embeddingsUser.node';

registerNodeType('n8n-nodes-fliplet.flipletEmbeddings', () => new FlipletEmbeddings());
registerNodeType('test.embeddingsUser', () => new EmbeddingsUser());

/**
 * A runner of the test root node that embeds `documents`, then `query` (when given), with the
 * Fliplet Embeddings sub-node on the published app, through n8n-core.
 */
export function embeddingsRunner(sandbox: () => Sandbox) {
	return (
		documents: string[],
		query: string,
		options: INodeParameters = {},
		model = 'text-embedding-3-small',
		run: Pick<RunOptions, 'whileRunning'> = {},
	) =>
		runNode({
			nodeType: 'test.embeddingsUser',
			parameters: { documents: JSON.stringify(documents), query },
			credentials: sandboxCredential(sandbox()),
			subNodes: [
				{
					name: 'Fliplet Embeddings',
					type: 'n8n-nodes-fliplet.flipletEmbeddings',
					connection: 'ai_embedding',
					parameters: { app: PUBLISHED_APP, model, options },
				},
			],
			...run,
		});
}
