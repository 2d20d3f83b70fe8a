import type { INodeProperties } from 'n8n-workflow';

import { aiTimeoutOption } from '../Fliplet/actions/ai/ai.descriptions';
import { GEMINI_PREFIX, REASONING_MODEL } from './models';

/**
 * Display conditions on the model chosen (n8n reads the model locator's value). Gemini's is a
 * prefix, which n8n checks without running a regular expression under its time limit.
 */
const reasoning = { _cnd: { regex: REASONING_MODEL } };
const gemini = { _cnd: { startsWith: GEMINI_PREFIX } };
/** Shown only for reasoning models, only for Gemini's, or for every model but those. */
const forReasoningModels = { show: { '/model': [reasoning] } };
const forGeminiModels = { show: { '/model': [gemini] } };
const forSamplingModels = { hide: { '/model': [reasoning] } };
const forOpenAiModels = { hide: { '/model': [gemini] } };
const forOpenAiSamplingModels = { hide: { '/model': [reasoning, gemini] } };

/**
 * The Chat Model's options: the settings the platform passes through to the provider, in the
 * chat-completions format (`Fliplet/fliplet-cli: docs/API/core/ai.md`) or in Gemini's
 * `generationConfig`, each shown only for the models that take it.
 */
export const chatModelOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Frequency Penalty',
			name: 'frequencyPenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
			default: 0,
			description:
				'Positive values make the model less likely to repeat the same words (sent as frequency_penalty)',
			displayOptions: forOpenAiSamplingModels,
		},
		{
			displayName: 'JSON Schema',
			name: 'jsonSchema',
			type: 'json',
			default:
				'{\n  "type": "object",\n  "properties": {\n    "answer": { "type": "string" }\n  },\n  "required": ["answer"],\n  "additionalProperties": false\n}',
			description:
				'The schema every answer follows. Strict (guaranteed) when every object sets additionalProperties: false and lists all its properties as required.',
			displayOptions: { show: { responseFormat: ['jsonSchema'] } },
		},
		{
			displayName: 'Maximum Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1024,
			description:
				"The most tokens one answer may use (sent as max_completion_tokens, or Gemini's maxOutputTokens)",
		},
		{
			displayName: 'Presence Penalty',
			name: 'presencePenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
			default: 0,
			description:
				'Positive values make the model more likely to move to new topics (sent as presence_penalty)',
			displayOptions: forOpenAiSamplingModels,
		},
		{
			displayName: 'Reasoning Effort',
			name: 'reasoningEffort',
			type: 'options',
			default: 'medium',
			options: [
				{ name: 'Minimal (GPT-5 Only)', value: 'minimal' },
				{ name: 'Low', value: 'low' },
				{ name: 'Medium', value: 'medium' },
				{ name: 'High', value: 'high' },
			],
			description: 'How long the reasoning model thinks before it answers',
			displayOptions: forReasoningModels,
		},
		{
			displayName: 'Response Format',
			name: 'responseFormat',
			type: 'options',
			default: 'text',
			options: [
				{ name: 'Text', value: 'text' },
				{
					name: 'JSON Object',
					value: 'json',
					description: 'A JSON object (mention JSON in the prompt too)',
				},
				{
					name: 'JSON Schema',
					value: 'jsonSchema',
					description: 'A JSON object that follows the schema given below',
				},
			],
			description:
				"With a Structured Output Parser (or a Text Classifier, Information Extractor, Sentiment Analysis), the parser's schema is sent as the JSON schema unless one is given here",
		},
		{
			displayName: 'Sampling Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
			default: 0.7,
			description: 'Higher values give more varied answers, lower more focused ones',
			displayOptions: forSamplingModels,
		},
		{
			displayName: 'Schema Name',
			name: 'schemaName',
			type: 'string',
			default: 'response',
			description: 'The name of the JSON schema: letters, digits, _ and - (at most 64)',
			displayOptions: { show: { responseFormat: ['jsonSchema'] }, ...forOpenAiModels },
		},
		{
			displayName: 'Seed',
			name: 'seed',
			type: 'number',
			typeOptions: { numberPrecision: 0 },
			default: 0,
			description:
				'The same seed with the same settings makes the answers as repeatable as the model allows (sent as seed)',
			displayOptions: forOpenAiModels,
		},
		{
			displayName: 'Stop Sequences',
			name: 'stop',
			type: 'string',
			typeOptions: { multipleValues: true },
			default: [],
			description:
				"Up to 4 texts at which the model stops writing; the text itself is not returned (sent as stop, or Gemini's stopSequences)",
			displayOptions: forSamplingModels,
		},
		aiTimeoutOption,
		{
			displayName: 'Top K',
			name: 'topK',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 40,
			description:
				'The model picks each token among the K likeliest ones: lower values give more focused answers (sent as topK)',
			displayOptions: forGeminiModels,
		},
		{
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description:
				'Nucleus sampling: 0.5 considers only the likeliest half of the probability mass. Change this or the temperature, not both (sent as top_p, or topP).',
			displayOptions: forSamplingModels,
		},
	],
};
