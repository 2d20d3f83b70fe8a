import type { INode } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import type { ModelSettings } from './format';
import { geminiAbilities, isGeminiModel } from './models';
import type { ResponseFormatSetting } from './structuredOutput';

export interface ModelOptions {
	maxTokens?: number;
	temperature?: number;
	reasoningEffort?: string;
	responseFormat?: ResponseFormatSetting;
	jsonSchema?: string | object;
	schemaName?: string;
	topP?: number;
	topK?: number;
	presencePenalty?: number;
	frequencyPenalty?: number;
	seed?: number;
	stop?: string[] | string;
	timeout?: number;
}

const SCHEMA_NAME = /^[\w-]{1,64}$/;

function settingError(node: INode, itemIndex: number, message: string, description: string) {
	return new NodeOperationError(node, message, {
		itemIndex,
		functionality: 'configuration-node',
		description,
	});
}

function schemaOf(node: INode, itemIndex: number, options: ModelOptions) {
	if (options.responseFormat !== 'jsonSchema') return undefined;
	const raw = options.jsonSchema ?? '';
	const schema: unknown =
		typeof raw === 'string' ? jsonParse(raw, { fallbackValue: undefined }) : raw;
	if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
		throw settingError(
			node,
			itemIndex,
			'The JSON Schema option is not a JSON object',
			'Give a JSON schema such as {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"], "additionalProperties": false}.',
		);
	}
	const name = options.schemaName || 'response';
	if (!SCHEMA_NAME.test(name)) {
		throw settingError(
			node,
			itemIndex,
			`The Schema Name "${name}" is not allowed`,
			'Use letters, digits, _ and - only, at most 64 characters.',
		);
	}
	return { schema: schema as Record<string, unknown>, schemaName: name };
}

/** The node's settings for the model, refused before any call when they cannot be sent. */
export function readModelSettings(
	node: INode,
	itemIndex: number,
	model: string,
	options: ModelOptions,
): ModelSettings {
	const json = options.responseFormat === 'json' || options.responseFormat === 'jsonSchema';
	if (json && isGeminiModel(model) && !geminiAbilities(model).jsonOutput) {
		throw settingError(
			node,
			itemIndex,
			`The model "${model}" takes no JSON response format`,
			"Gemini's image models answer text and images only: set Response Format to Text, or pick a Gemini text model such as gemini-2.5-flash.",
		);
	}
	// An expression may give one text instead of a list.
	const stop = [options.stop ?? []]
		.flat()
		.filter((sequence): sequence is string => typeof sequence === 'string' && sequence !== '');
	if (stop.length > 4) {
		throw settingError(
			node,
			itemIndex,
			`${stop.length} stop sequences were given; the model takes at most 4`,
			'Remove stop sequences until 4 are left.',
		);
	}
	return {
		temperature: options.temperature,
		maxTokens: options.maxTokens,
		reasoningEffort: options.reasoningEffort,
		topP: options.topP,
		topK: options.topK,
		presencePenalty: options.presencePenalty,
		frequencyPenalty: options.frequencyPenalty,
		seed: options.seed,
		stop: stop.length ? stop : undefined,
		structuredOutput: {
			responseFormat: options.responseFormat,
			...schemaOf(node, itemIndex, options),
		},
	};
}
