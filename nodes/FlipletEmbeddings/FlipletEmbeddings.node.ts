import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	aiAppLocator,
	aiTimeoutOption,
	dimensionsOption,
} from '../Fliplet/actions/ai/ai.descriptions';
import { assertTakesDimensions } from '../Fliplet/helpers/aiEmbeddings';
import { aiRequest } from '../Fliplet/helpers/aiRequest';
import { getAppId } from '../Fliplet/helpers/locators';
import { asSubNodeError } from '../Fliplet/helpers/subNodeError';
import { credentialTest } from '../Fliplet/methods';
import { searchApps } from '../Fliplet/methods/listSearch/apps';
import { FlipletEmbeddings as EmbeddingsClient } from './embeddings';

interface EmbeddingOptions {
	dimensions?: number;
	batchSize?: number;
	timeout?: number;
}

export class FlipletEmbeddings implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet Embeddings',
		name: 'flipletEmbeddings',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["model"] }}',
		description: "Embeddings for n8n's vector stores, run on a Fliplet app's AI credits",
		defaults: { name: 'Fliplet Embeddings' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiEmbedding],
		outputNames: ['Embeddings'],
		credentials: [{ name: 'flipletApi', required: true, testedBy: 'flipletApiTest' }],
		properties: [
			aiAppLocator,
			{
				displayName: 'Model',
				name: 'model',
				type: 'options',
				default: 'text-embedding-3-small',
				options: [
					{ name: 'Text Embedding 3 Small', value: 'text-embedding-3-small' },
					{ name: 'Text Embedding 3 Large', value: 'text-embedding-3-large' },
					{ name: 'Text Embedding Ada 002', value: 'text-embedding-ada-002' },
				],
				description:
					'The embedding model. Stored vectors and query vectors must use the same model and dimensions.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Batch Size',
						name: 'batchSize',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 2048 },
						default: 100,
						description:
							"Texts per request. Each request is one AI call of the app's 10 a minute: larger batches use fewer.",
					},
					dimensionsOption,
					aiTimeoutOption,
				],
			},
		],
	};

	methods = { credentialTest, listSearch: { searchApps } };

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const appId = await getAppId.call(this, itemIndex);
		const model = this.getNodeParameter('model', itemIndex) as string;
		const options = this.getNodeParameter('options', itemIndex, {}) as EmbeddingOptions;
		const node = this.getNode();
		if (options.dimensions) assertTakesDimensions(node, model, itemIndex);
		const cancelled = () =>
			new NodeOperationError(node, 'The embeddings call was cancelled', {
				itemIndex,
				functionality: 'configuration-node',
				description:
					'The execution was stopped while texts were being embedded: the request in flight was aborted and no further batch was sent. A batch the platform had already handed to the provider may still be charged.',
			});
		const embeddings = new EmbeddingsClient(
			{ model, dimensions: options.dimensions, batchSize: options.batchSize ?? 100 },
			{
				send: async (body: IDataObject, abortSignal: AbortSignal | undefined) => {
					const { index } = this.addInputData(NodeConnectionTypes.AiEmbedding, [
						[{ json: { model, texts: body.input as string[] } }],
					]);
					let response: IDataObject;
					try {
						response = await aiRequest.call(
							this,
							appId,
							'embeddings',
							{ body },
							itemIndex,
							options.timeout,
							abortSignal,
						);
					} catch (error) {
						if (abortSignal?.aborted) throw cancelled();
						throw asSubNodeError(error);
					}
					this.addOutputData(NodeConnectionTypes.AiEmbedding, index, [
						[{ json: { model, vectors: (response.data as unknown[] | undefined)?.length ?? 0 } }],
					]);
					return response;
				},
				cancelSignal: () => this.getExecutionCancelSignal(),
				emptyText: () =>
					new NodeOperationError(node, 'A text to embed is empty', {
						itemIndex,
						functionality: 'configuration-node',
						description:
							'Check the document loader and the query: every document and question needs some text.',
					}),
				unreadable: (response, expected) =>
					new NodeOperationError(node, `Unexpected answer: not one vector per text (${expected})`, {
						itemIndex,
						functionality: 'configuration-node',
						description: `The answer has the fields ${Object.keys(response).join(', ') || '(none)'}. Pick one of the listed embedding models.`,
					}),
				cancelled,
			},
		);
		return { response: embeddings };
	}
}
