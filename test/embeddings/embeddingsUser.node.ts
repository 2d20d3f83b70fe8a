/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

interface Embeddings {
	embedDocuments(documents: string[]): Promise<number[][]>;
	embedQuery(text: string): Promise<number[]>;
}

/** A test root node that uses the connected embeddings as n8n's vector stores do. */
export class EmbeddingsUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Embeddings User',
		name: 'embeddingsUser',
		group: ['transform'],
		version: 1,
		description: 'Uses embeddings',
		defaults: { name: 'Embeddings User' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiEmbedding, required: true, maxConnections: 1 },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Documents', name: 'documents', type: 'json', default: '[]' },
			{ displayName: 'Query', name: 'query', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const embeddings = (await this.getInputConnectionData(
			NodeConnectionTypes.AiEmbedding,
			0,
		)) as Embeddings;
		const documents = JSON.parse(this.getNodeParameter('documents', 0) as string) as string[];
		const query = this.getNodeParameter('query', 0) as string;
		const vectors = await embeddings.embedDocuments(documents);
		const queryVector = query ? await embeddings.embedQuery(query) : null;
		return [[{ json: { vectors, queryVector } }]];
	}
}
