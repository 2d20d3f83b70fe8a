import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aiAppLocator, aiTimeoutOption } from '../Fliplet/actions/ai/ai.descriptions';
import { aiRequest } from '../Fliplet/helpers/aiRequest';
import { getAppId, readLocator } from '../Fliplet/helpers/locators';
import { credentialTest } from '../Fliplet/methods';
import { searchApps } from '../Fliplet/methods/listSearch/apps';
import { FlipletChatModel as ChatModelClient, type ModelSettings } from './chatModel';
import { chatModelError, unreadableAnswer, unsupportedInput } from './errors';
import { searchChatModels } from './models';
import { loadAiNodeSdk } from './sdk';

interface ModelOptions {
	maxTokens?: number;
	temperature?: number;
	reasoningEffort?: string;
	responseFormat?: 'text' | 'json';
	timeout?: number;
}

export class FlipletChatModel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet Chat Model',
		name: 'flipletChatModel',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["model"].value }}',
		description: "Chat model for n8n's AI nodes, run on a Fliplet app's AI credits",
		defaults: { name: 'Fliplet Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		credentials: [{ name: 'flipletApi', required: true, testedBy: 'flipletApiTest' }],
		properties: [
			aiAppLocator,
			{
				displayName: 'Model',
				name: 'model',
				type: 'resourceLocator',
				default: { mode: 'list', value: 'gpt-4o-mini' },
				required: true,
				description:
					"The platform's chat model (chat-completions format). Every call uses the app's AI credits.",
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'searchChatModels', searchable: true },
					},
					{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. gpt-4o-mini' },
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Maximum Tokens',
						name: 'maxTokens',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1024,
						description: 'The most tokens one answer may use (sent as max_completion_tokens)',
					},
					{
						displayName: 'Reasoning Effort',
						name: 'reasoningEffort',
						type: 'options',
						default: 'medium',
						options: [
							{ name: 'Minimal', value: 'minimal' },
							{ name: 'Low', value: 'low' },
							{ name: 'Medium', value: 'medium' },
							{ name: 'High', value: 'high' },
						],
						description:
							'How long a reasoning model (gpt-5, gpt-5-mini, o4-mini) thinks before it answers. Other models refuse it.',
					},
					{
						displayName: 'Response Format',
						name: 'responseFormat',
						type: 'options',
						default: 'text',
						options: [
							{ name: 'Text', value: 'text' },
							{
								name: 'JSON',
								value: 'json',
								description: 'A JSON object (mention JSON in the prompt too)',
							},
						],
					},
					{
						displayName: 'Sampling Temperature',
						name: 'temperature',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
						default: 0.7,
						description:
							'Higher values give more varied answers, lower more focused ones. Reasoning models take only the default.',
					},
					aiTimeoutOption,
				],
			},
		],
	};

	methods = {
		credentialTest,
		listSearch: {
			searchApps,
			searchChatModels: async (filter?: string) => await searchChatModels(filter),
		},
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const sdk = await loadAiNodeSdk(this.getNode(), itemIndex);
		const appId = await getAppId.call(this, itemIndex);
		const model = readLocator.call(this, 'model', itemIndex).value || 'gpt-4o-mini';
		const options = this.getNodeParameter('options', itemIndex, {}) as ModelOptions;
		const settings: ModelSettings = {
			temperature: options.temperature,
			maxTokens: options.maxTokens,
			reasoningEffort: options.reasoningEffort,
			json: options.responseFormat === 'json',
		};
		const node = this.getNode();
		const client = new ChatModelClient(model, settings, {
			send: async (body: IDataObject) => {
				try {
					return await aiRequest.call(
						this,
						appId,
						'completions',
						{ body },
						itemIndex,
						options.timeout,
					);
				} catch (error) {
					throw chatModelError(error, model);
				}
			},
			toJsonSchema: (tool) => sdk.getParametersJsonSchema(tool),
			unsupported: (message) => unsupportedInput(node, message, itemIndex),
			unreadable: (response) => unreadableAnswer(node, response, itemIndex),
		});
		return sdk.supplyModel(this, client);
	}
}
