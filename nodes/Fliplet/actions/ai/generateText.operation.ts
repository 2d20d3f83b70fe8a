import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { jsonParse, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { AI_REQUEST_ONCE, aiRequest } from '../../helpers/aiRequest';
import {
	buildCompletionBody,
	extractText,
	formatOfBody,
	responseDetails,
	withAiProvider,
	type ChatMessage,
	type CompletionFormat,
} from '../../helpers/aiText';
import { getAppId } from '../../helpers/locators';
import { mapItemsOnce } from '../../helpers/mapItems';
import { aiAppLocator, modelField } from './ai.descriptions';

/**
 * The models the field suggests: each one a vendor file names (`Fliplet/fliplet-cli:
 * docs/API/core/ai.md`: gpt-4o, gemini-2.5-flash; `Fliplet/fliplet-widget-ai-feature:
 * js/interface.js`: gpt-4o-mini, gpt-4.1; its `js/system-prompt.js`: gpt-5). Any other id the
 * platform serves can be typed.
 */
const OPENAI_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'gpt-5'];
const GEMINI_MODELS = ['gemini-2.5-flash'];

const properties: INodeProperties[] = [
	aiAppLocator,
	{
		displayName: 'Define Request',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		default: 'simple',
		options: [
			{
				name: 'Using Fields Below',
				value: 'simple',
				description: 'Model, system message and prompt or messages',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: "A full body in the model provider's format, sent as is",
			},
		],
	},
	{
		displayName: 'API Format',
		name: 'format',
		type: 'options',
		default: 'chatCompletions',
		options: [
			{
				name: 'Chat Completions',
				value: 'chatCompletions',
				description: 'OpenAI-style messages (most models)',
			},
			{
				name: 'Responses',
				value: 'responses',
				description: 'OpenAI Responses API (input + instructions)',
			},
			{ name: 'Generate Content', value: 'generateContent', description: 'Google Gemini contents' },
		],
		displayOptions: { show: { inputMode: ['simple'] } },
	},
	{
		...modelField('gpt-4o-mini', OPENAI_MODELS, 'text'),
		displayOptions: { show: { inputMode: ['simple'], format: ['chatCompletions', 'responses'] } },
	},
	{
		...modelField('gemini-2.5-flash', GEMINI_MODELS, 'Gemini text'),
		displayOptions: { show: { inputMode: ['simple'], format: ['generateContent'] } },
	},
	{
		displayName: 'System Message',
		name: 'systemMessage',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. You are a concise assistant for field engineers.',
		description: 'Instructions that steer every answer (optional)',
		displayOptions: { show: { inputMode: ['simple'] } },
	},
	{
		displayName: 'Input',
		name: 'messageSource',
		type: 'options',
		default: 'prompt',
		options: [
			{ name: 'Prompt', value: 'prompt', description: 'One user message' },
			{
				name: 'Messages',
				value: 'messages',
				description: 'A conversation: earlier user and assistant turns, then the question',
			},
		],
		displayOptions: { show: { inputMode: ['simple'] } },
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. Summarise this report in three bullet points: {{ $json.report }}',
		description: 'The user message the model answers',
		displayOptions: { show: { inputMode: ['simple'], messageSource: ['prompt'] } },
	},
	{
		displayName: 'Messages',
		name: 'messages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		placeholder: 'Add Message',
		description:
			'The conversation in order. The platform keeps no history: send every turn the model needs.',
		displayOptions: { show: { inputMode: ['simple'], messageSource: ['messages'] } },
		options: [
			{
				displayName: 'Message',
				name: 'message',
				values: [
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'user',
						options: [
							{ name: 'User', value: 'user' },
							{ name: 'Assistant', value: 'assistant' },
							{ name: 'System', value: 'system' },
						],
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
					},
				],
			},
		],
	},
	{
		displayName: 'Body (JSON)',
		name: 'jsonBody',
		type: 'json',
		required: true,
		default:
			'{\n  "model": "gpt-4o-mini",\n  "messages": [{ "role": "user", "content": "Hello" }]\n}',
		description:
			'The request in the provider format: "messages" (chat completions), "input" with "useResponses": true (responses) or "contents" (generate content). Streaming and legacy "prompt" bodies are refused.',
		displayOptions: { show: { inputMode: ['json'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Raw Response',
				name: 'includeRaw',
				type: 'boolean',
				default: false,
				description: 'Whether to add the provider\'s full response under "raw"',
			},
			{
				displayName: 'JSON Output',
				name: 'jsonOutput',
				type: 'boolean',
				default: false,
				description:
					'Whether to ask the model for a JSON object; the parsed object is added under "data". Mention JSON in the prompt too.',
				displayOptions: { show: { '/inputMode': ['simple'] } },
			},
			{
				displayName: 'Maximum Tokens',
				name: 'maxTokens',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1024,
				description: 'The most tokens the answer may use',
				displayOptions: { show: { '/inputMode': ['simple'] } },
			},
			{
				displayName: 'Temperature',
				name: 'temperature',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
				default: 1,
				description: 'Higher values give more varied answers, lower values more focused ones',
				displayOptions: { show: { '/inputMode': ['simple'] } },
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ai'], operation: ['generateText'] } },
	properties,
);

interface TextOptions {
	includeRaw?: boolean;
	jsonOutput?: boolean;
	maxTokens?: number;
	temperature?: number;
}

function conversation(this: IExecuteFunctions, itemIndex: number): ChatMessage[] {
	const source = this.getNodeParameter('messageSource', itemIndex) as string;
	const messages =
		source === 'prompt'
			? [
					{
						role: 'user' as const,
						content: this.getNodeParameter('prompt', itemIndex, '') as string,
					},
				]
			: ((this.getNodeParameter('messages.message', itemIndex, []) as ChatMessage[]) ?? []);
	if (!messages.length || messages.some((message) => !String(message.content ?? '').trim())) {
		throw new NodeOperationError(
			this.getNode(),
			source === 'prompt' ? 'The prompt is empty' : 'A message is empty',
			{
				itemIndex,
				description:
					'Give the text the model should answer (an expression such as {{ $json.question }} works).',
			},
		);
	}
	return messages.map(({ role, content }) => ({ role, content: String(content) }));
}

function simpleBody(this: IExecuteFunctions, itemIndex: number, options: TextOptions) {
	const format = this.getNodeParameter('format', itemIndex) as CompletionFormat;
	const model = String(this.getNodeParameter('model', itemIndex, '') ?? '').trim();
	if (!model) {
		throw new NodeOperationError(this.getNode(), 'No model given', {
			itemIndex,
			description:
				'Enter the model to use, e.g. gpt-4o-mini (or gemini-2.5-flash for Generate Content).',
		});
	}
	const body = withAiProvider(
		format,
		buildCompletionBody({
			format,
			model,
			systemMessage: String(this.getNodeParameter('systemMessage', itemIndex, '') ?? '').trim(),
			messages: conversation.call(this, itemIndex),
			temperature: options.temperature,
			maxTokens: options.maxTokens,
			json: options.jsonOutput,
		}),
	);
	return { format, body };
}

function jsonBody(this: IExecuteFunctions, itemIndex: number) {
	const raw = this.getNodeParameter('jsonBody', itemIndex) as unknown;
	let body: unknown = raw;
	if (typeof raw === 'string') {
		// jsonParse rethrows when the fallback is undefined: use null, refused just below.
		body = jsonParse(raw, { fallbackValue: null });
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw new NodeOperationError(this.getNode(), 'The body is not a JSON object', {
			itemIndex,
			description:
				'Write the request as a JSON object, e.g. {"model": "gpt-4o-mini", "messages": [...]}.',
		});
	}
	const checked = formatOfBody(body as IDataObject);
	if ('problem' in checked) {
		throw new NodeOperationError(this.getNode(), checked.problem, {
			itemIndex,
			description: checked.fix,
		});
	}
	return { format: checked.format, body: withAiProvider(checked.format, body as IDataObject) };
}

/** The model's JSON answer, or an error that shows the answer and how to get JSON. */
function parsedJson(this: IExecuteFunctions, text: string, itemIndex: number): IDataObject {
	try {
		return jsonParse<IDataObject>(text);
	} catch {
		throw new NodeOperationError(this.getNode(), 'The model did not answer with valid JSON', {
			itemIndex,
			description: `It answered "${text.length > 200 ? `${text.slice(0, 200)}…` : text}". Ask for JSON in the prompt or system message, raise "Maximum Tokens" if the answer was cut off, or turn off "JSON Output" to get the text as it is.`,
		});
	}
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, AI_REQUEST_ONCE, async (itemIndex) => {
		const options = this.getNodeParameter('options', itemIndex, {}) as TextOptions;
		const simple = this.getNodeParameter('inputMode', itemIndex) === 'simple';
		const { format, body } = simple
			? simpleBody.call(this, itemIndex, options)
			: jsonBody.call(this, itemIndex);
		const appId = await getAppId.call(this, itemIndex);
		const response = await aiRequest.call(this, appId, 'completions', { body }, itemIndex);
		const text = extractText(format, response);
		if (text === undefined) {
			throw new NodeOperationError(
				this.getNode(),
				'Unexpected response: no generated text where the format puts it',
				{
					itemIndex,
					description: `The response has the fields ${Object.keys(response).join(', ') || '(none)'}. Check that the model belongs to the chosen format (e.g. Gemini models use Generate Content).`,
				},
			);
		}
		const output: IDataObject = { text, ...responseDetails(response) };
		if (simple && options.jsonOutput) output.data = parsedJson.call(this, text, itemIndex);
		if (options.includeRaw) output.raw = response;
		return output;
	});
}
