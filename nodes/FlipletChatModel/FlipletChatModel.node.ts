import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aiAppLocator } from '../Fliplet/actions/ai/ai.descriptions';
import { aiRequest } from '../Fliplet/helpers/aiRequest';
import { getAppId, readLocator } from '../Fliplet/helpers/locators';
import { credentialTest } from '../Fliplet/methods';
import { searchApps } from '../Fliplet/methods/listSearch/apps';
import { fixAdapter } from './adapterFixes';
import { FlipletChatModel as ChatModelClient } from './chatModel';
import {
	cancelledCall,
	chatModelError,
	failedAfterRefusal,
	invalidToolArguments,
	refusedResponseFormat,
	unreadableAnswer,
	unsupportedInput,
} from './errors';
import { searchChatModels } from './models';
import { chatModelOptions } from './options';
import { loadAiNodeSdk } from './sdk';
import { readModelSettings, type ModelOptions } from './settings';

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
					"The platform's chat model: OpenAI's (chat-completions format) or Google's Gemini (generate-content format). Every call uses the app's AI credits.",
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
			chatModelOptions,
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
		const node = this.getNode();
		const settings = readModelSettings(node, itemIndex, model, options);
		const client = new ChatModelClient(model, settings, {
			send: async (body: IDataObject, abortSignal: AbortSignal | undefined) => {
				// The agent's signal (a closed chat) or the execution's (Stop): no call once either fired.
				const cancelled = () => abortSignal?.aborted || this.getExecutionCancelSignal()?.aborted;
				if (cancelled()) throw cancelledCall(node, itemIndex);
				try {
					return await aiRequest.call(
						this,
						appId,
						'completions',
						{ body },
						itemIndex,
						options.timeout,
						abortSignal,
					);
				} catch (error) {
					if (cancelled()) throw cancelledCall(node, itemIndex);
					throw chatModelError(error, model);
				}
			},
			toJsonSchema: (tool) => sdk.getParametersJsonSchema(tool),
			refusedFormat: refusedResponseFormat,
			failedAfterRefusal,
			unsupported: (message, description) =>
				unsupportedInput(node, message, itemIndex, description),
			unreadable: (response, answerName) => unreadableAnswer(node, response, itemIndex, answerName),
			invalidToolArguments: (problem) => invalidToolArguments(node, problem, itemIndex),
		});
		return { response: fixAdapter(sdk.supplyModel(this, client).response) };
	}
}
