import type { Message } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

/**
 * Structured output: which schema a call asks for (the node's, or an output parser's), and the
 * pieces the chat-completions format sends it in: `response_format: {type: 'json_schema',
 * json_schema: {name, schema, strict}}` (what the platform's own AI widget sends,
 * `Fliplet/fliplet-widget-ai-feature: js/interface.js`), a function whose parameters are the
 * schema, or the schema in the prompt; strict when the schema allows it. Which of them a model
 * gets: outputRoutes.ts.
 */

export type ResponseFormatSetting = 'text' | 'json' | 'jsonSchema';

export type JsonSchema = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonSchema =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The sentence LangChain's structured output parser (which n8n's Structured Output Parser, Text
 * Classifier, Information Extractor and Sentiment Analysis use) puts before the schema it adds to
 * the prompt, in a ```json fence.
 */
const PARSER_INSTRUCTIONS = 'You must format your output as a JSON value that adheres to a given';
const SCHEMA_FENCE = /Here is the JSON Schema instance[^\n]*\n```json\s*\n([\s\S]*?)\n\s*```/;

/** The schema an output parser's format instructions carry in the messages, if any. */
export function outputParserSchema(messages: Message[]): JsonSchema | undefined {
	for (const message of messages) {
		if (message.role !== 'system' && message.role !== 'user') continue;
		for (const part of message.content) {
			if (part.type !== 'text' || !part.text.includes(PARSER_INSTRUCTIONS)) continue;
			const fence = SCHEMA_FENCE.exec(part.text);
			if (!fence) continue;
			try {
				const schema: unknown = JSON.parse(fence[1]);
				if (isObject(schema) && schema.type === 'object') return schema;
			} catch {
				// Not JSON: the instructions stay in the prompt and the answer is parsed as before.
			}
		}
	}
	return undefined;
}

/** Keywords strict mode does not take (OpenAI's structured outputs: supported schemas). */
const NOT_IN_STRICT = [
	'patternProperties',
	'allOf',
	'not',
	'if',
	'then',
	'else',
	'dependentRequired',
];

/**
 * Whether strict mode takes the schema: an object at the root, and every object lists all its
 * properties as required and sets `additionalProperties: false`, down to the leaves.
 */
export function allowsStrict(schema: unknown, root = true): boolean {
	if (!isObject(schema)) return !root;
	if (root && schema.type !== 'object') return false;
	if (NOT_IN_STRICT.some((keyword) => keyword in schema)) return false;
	const properties = isObject(schema.properties) ? schema.properties : {};
	const types = [schema.type].flat();
	if (types.includes('object')) {
		const required = Array.isArray(schema.required) ? schema.required : [];
		if (schema.additionalProperties !== false) return false;
		if (!Object.keys(properties).every((key) => required.includes(key))) return false;
	}
	const children = [
		...Object.values(properties),
		...(schema.items === undefined ? [] : [schema.items]),
		...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
		...['$defs', 'definitions'].flatMap((key) =>
			isObject(schema[key]) ? Object.values(schema[key]) : [],
		),
	];
	return children.every((child) => allowsStrict(child, false));
}

/** A schema as sent: its `$schema` dialect note is metadata, not part of what is asked for. */
function sendable(schema: JsonSchema): JsonSchema {
	const sent = { ...schema };
	delete sent.$schema;
	return sent;
}

export function jsonSchemaFormat(name: string, schema: JsonSchema): IDataObject {
	const sent = sendable(schema);
	return {
		type: 'json_schema',
		json_schema: { name, schema: sent, strict: allowsStrict(sent) },
	} as IDataObject;
}

/**
 * A function whose parameters are the schema, for function calling: strict whenever the schema
 * allows it (OpenAI follows a strict function's schema on every model that calls functions).
 */
export function schemaFunction(name: string, schema: JsonSchema): IDataObject {
	const sent = sendable(schema);
	return {
		type: 'function',
		function: {
			name,
			description: 'Give the whole answer as the arguments of this function.',
			parameters: sent,
			strict: allowsStrict(sent),
		},
	} as IDataObject;
}

/** The schema as an instruction, for a prompt that does not carry it yet. */
export function schemaInstruction(schema: JsonSchema): string {
	return `Answer with a JSON object that follows this JSON Schema, and nothing else:\n\`\`\`json\n${JSON.stringify(sendable(schema))}\n\`\`\``;
}

export interface StructuredOutputSettings {
	responseFormat?: ResponseFormatSetting;
	/** The schema of the JSON Schema setting, already parsed. */
	schema?: JsonSchema;
	schemaName?: string;
}

/**
 * What one call asks the answer to be: an instance of a JSON schema (`inPrompt` when an output
 * parser already put it in the prompt), or any JSON object.
 */
export type RequestedOutput =
	| { schema: JsonSchema; name: string; inPrompt: boolean }
	| { json: true }
	| undefined;

/**
 * The node's own JSON schema first, then the schema an output parser put in the prompt (it turns
 * Text or JSON mode into that schema), then JSON mode.
 */
export function requestedOutput(
	settings: StructuredOutputSettings,
	messages: Message[],
): RequestedOutput {
	if (settings.responseFormat === 'jsonSchema' && settings.schema) {
		return { schema: settings.schema, name: settings.schemaName || 'response', inPrompt: false };
	}
	const parserSchema = outputParserSchema(messages);
	if (parserSchema) return { schema: parserSchema, name: 'structured_output', inPrompt: true };
	if (settings.responseFormat === 'json') return { json: true };
	return undefined;
}
