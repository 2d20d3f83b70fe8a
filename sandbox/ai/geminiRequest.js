'use strict';

const { badRequest, isObject } = require('../http');
const { GEMINI_IMAGE } = require('./models');

/**
 * A generate-content body checked as Gemini checks the request the platform hands it (the
 * platform passes the body through: `Fliplet/fliplet-cli: docs/API/core/ai.md`, "your payload must
 * conform to the Gemini API's request body structure"). Gemini refuses any field its request has
 * no place for ("Invalid JSON payload received. Unknown name …: Cannot find field."), roles other
 * than `user` and `model`, empty parts, function parameters of type object without properties,
 * and, on the models that lack them, a system instruction, function calling or JSON output. The
 * provider's refusals reach the client as the platform's 400.
 */

const refuse = (message) => badRequest(message, { type: 'ai.provider' });

/** The request's own fields, and those the platform reads before it hands the body over. */
const REQUEST_FIELDS = [
	'contents',
	'systemInstruction',
	'generationConfig',
	'tools',
	'toolConfig',
	'safetySettings',
	'cachedContent',
];
const PLATFORM_FIELDS = ['model', 'aiProvider', 'stream'];
const PART_DATA = [
	'text',
	'inlineData',
	'fileData',
	'functionCall',
	'functionResponse',
	'executableCode',
	'codeExecutionResult',
];
const PART_FIELDS = [...PART_DATA, 'thought', 'thoughtSignature', 'videoMetadata'];
const TOOL_FIELDS = [
	'functionDeclarations',
	'googleSearch',
	'googleSearchRetrieval',
	'codeExecution',
	'urlContext',
];
const DECLARATION_FIELDS = [
	'name',
	'description',
	'parameters',
	'parametersJsonSchema',
	'response',
	'responseJsonSchema',
	'behavior',
];
/** Gemini's Schema object: the OpenAPI 3.0 subset it takes. */
const SCHEMA_FIELDS = [
	'type',
	'format',
	'title',
	'description',
	'nullable',
	'enum',
	'maxItems',
	'minItems',
	'properties',
	'required',
	'minProperties',
	'maxProperties',
	'minLength',
	'maxLength',
	'pattern',
	'example',
	'anyOf',
	'propertyOrdering',
	'default',
	'items',
	'minimum',
	'maximum',
];
const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
const GENERATION_FIELDS = [
	'stopSequences',
	'responseMimeType',
	'responseSchema',
	'responseJsonSchema',
	'responseModalities',
	'candidateCount',
	'maxOutputTokens',
	'temperature',
	'topP',
	'topK',
	'seed',
	'presencePenalty',
	'frequencyPenalty',
	'responseLogprobs',
	'logprobs',
	'thinkingConfig',
	'mediaResolution',
	'speechConfig',
];
const MIME_TYPES = ['text/plain', 'application/json', 'text/x.enum'];
const FUNCTION_NAME = /^[A-Za-z_][\w.:-]{0,63}$/;

/** `generationConfig.responseSchema` as Gemini names it in its messages: generation_config.response_schema. */
const snake = (path) => path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function onlyKnown(object, known, path) {
	const unknown = Object.keys(object).find((key) => !known.includes(key));
	if (unknown !== undefined) {
		const at = path ? ` at '${snake(path)}'` : '';
		throw refuse(
			`Invalid JSON payload received. Unknown name "${unknown}"${at}: Cannot find field.`,
		);
	}
}

function checkSchema(schema, path, { parameters = false } = {}) {
	if (!isObject(schema)) throw refuse(`* ${snake(path)}: must be a schema object.`);
	onlyKnown(schema, SCHEMA_FIELDS, path);
	const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : undefined;
	if (schema.type !== undefined && !SCHEMA_TYPES.includes(type)) {
		throw refuse(`Invalid value at '${snake(path)}.type': ${JSON.stringify(schema.type)}`);
	}
	const properties = isObject(schema.properties) ? schema.properties : {};
	if (parameters && type === 'object' && !Object.keys(properties).length) {
		throw refuse(`* ${snake(path)}.properties: should be non-empty for OBJECT type`);
	}
	for (const [key, child] of Object.entries(properties)) {
		checkSchema(child, `${path}.properties[${key}]`, { parameters });
	}
	if (schema.items !== undefined) checkSchema(schema.items, `${path}.items`, { parameters });
	(Array.isArray(schema.anyOf) ? schema.anyOf : []).forEach((child, index) =>
		checkSchema(child, `${path}.anyOf[${index}]`, { parameters }),
	);
}

function checkPart(part, path) {
	if (!isObject(part)) throw refuse(`* ${snake(path)}: must be an object.`);
	onlyKnown(part, PART_FIELDS, path);
	const data = PART_DATA.filter((key) => part[key] !== undefined);
	if (data.length !== 1) {
		throw refuse(`* ${snake(path)}: a part holds exactly one of text, inlineData, functionCall…`);
	}
	if (part.text !== undefined && typeof part.text !== 'string') {
		throw refuse(`Invalid value at '${snake(path)}.text': must be a string.`);
	}
	if (part.inlineData !== undefined) {
		const { mimeType, data: base64 } = isObject(part.inlineData) ? part.inlineData : {};
		if (typeof mimeType !== 'string' || typeof base64 !== 'string' || !/^[\w+/=]*$/.test(base64))
			throw refuse(`* ${snake(path)}.inlineData: needs mimeType and base64 data.`);
	}
	for (const key of ['functionCall', 'functionResponse']) {
		if (part[key] === undefined) continue;
		const value = part[key];
		const payload = key === 'functionCall' ? value?.args : value?.response;
		if (!isObject(value) || typeof value.name !== 'string' || !value.name) {
			throw refuse(`* ${snake(`${path}.${key}`)}.name: Name cannot be empty.`);
		}
		if (payload !== undefined && !isObject(payload)) {
			throw refuse(`Invalid value at '${snake(`${path}.${key}`)}': must be a JSON object.`);
		}
		if (key === 'functionResponse' && payload === undefined) {
			throw refuse(`* ${snake(`${path}.${key}`)}.response: a function response needs one.`);
		}
	}
}

function checkContent(content, path, roles) {
	if (!isObject(content)) throw refuse(`* ${snake(path)}: must be an object.`);
	onlyKnown(content, ['role', 'parts'], path);
	if (content.role !== undefined && !roles.includes(content.role)) {
		throw refuse(`Please use a valid role: ${roles.join(', ')}.`);
	}
	if (!Array.isArray(content.parts) || !content.parts.length) {
		throw refuse(`* ${snake(path)}.parts: contents.parts must not be empty.`);
	}
	content.parts.forEach((part, index) => checkPart(part, `${path}.parts[${index}]`));
}

function checkTools(tools) {
	if (!Array.isArray(tools)) throw refuse("Invalid value at 'tools': must be a list.");
	tools.forEach((tool, t) => {
		if (!isObject(tool)) throw refuse(`Invalid value at 'tools[${t}]': must be an object.`);
		onlyKnown(tool, TOOL_FIELDS, `tools[${t}]`);
		(Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : []).forEach(
			(declaration, d) => {
				const path = `tools[${t}].functionDeclarations[${d}]`;
				if (!isObject(declaration)) throw refuse(`* ${snake(path)}: must be an object.`);
				onlyKnown(declaration, DECLARATION_FIELDS, path);
				if (typeof declaration.name !== 'string' || !FUNCTION_NAME.test(declaration.name)) {
					throw refuse(
						`* ${snake(path)}.name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.`,
					);
				}
				if (declaration.parameters !== undefined) {
					checkSchema(declaration.parameters, `${path}.parameters`, { parameters: true });
				}
			},
		);
	});
}

function numberIn(config, name, min, max, whole = false) {
	const value = config[name];
	if (value === undefined) return;
	const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
	if (!ok || (whole && !Number.isInteger(value))) {
		throw refuse(
			`* generation_config.${snake(name)}: must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}.`,
		);
	}
}

/** A copy of a Gemini schema with its type names in lower case (Gemini takes either case). */
function lowerTypes(schema) {
	if (!isObject(schema)) return schema;
	const copy = { ...schema };
	if (typeof copy.type === 'string') copy.type = copy.type.toLowerCase();
	if (isObject(copy.properties)) {
		copy.properties = Object.fromEntries(
			Object.entries(copy.properties).map(([key, value]) => [key, lowerTypes(value)]),
		);
	}
	if (copy.items !== undefined) copy.items = lowerTypes(copy.items);
	return copy;
}

function checkGenerationConfig(config) {
	if (!isObject(config)) throw refuse("Invalid value at 'generation_config': must be an object.");
	onlyKnown(config, GENERATION_FIELDS, 'generationConfig');
	numberIn(config, 'temperature', 0, 2);
	numberIn(config, 'topP', 0, 1);
	numberIn(config, 'topK', 1, Number.MAX_SAFE_INTEGER, true);
	numberIn(config, 'maxOutputTokens', 1, Number.MAX_SAFE_INTEGER, true);
	numberIn(config, 'candidateCount', 1, 8, true);
	const stop = config.stopSequences;
	if (
		stop !== undefined &&
		!(Array.isArray(stop) && stop.length <= 5 && stop.every((s) => typeof s === 'string' && s))
	) {
		throw refuse('* generation_config.stop_sequences: at most 5 non-empty strings.');
	}
	const mime = config.responseMimeType;
	if (mime !== undefined && !MIME_TYPES.includes(mime)) {
		throw refuse(`* generation_config.response_mime_type: unsupported MIME type ${mime}.`);
	}
	if (config.responseSchema !== undefined) {
		if (mime !== 'application/json' && mime !== 'text/x.enum') {
			throw refuse(
				'* generation_config.response_mime_type: must be application/json or text/x.enum when response_schema is set.',
			);
		}
		checkSchema(config.responseSchema, 'generationConfig.responseSchema');
	}
}

/**
 * Checks a generate-content body as Gemini does; returns what the answer must follow: the schema
 * (responseSchema, types in lower case), JSON mode and the stop sequences.
 * @param {Record<string, any>} body
 */
function geminiRequest(body) {
	onlyKnown(body, [...REQUEST_FIELDS, ...PLATFORM_FIELDS], '');
	body.contents.forEach((content, index) =>
		checkContent(content, `contents[${index}]`, ['user', 'model']),
	);
	if (body.systemInstruction !== undefined) {
		checkContent(body.systemInstruction, 'systemInstruction', ['user', 'system']);
	}
	if (body.tools !== undefined) checkTools(body.tools);
	const config = body.generationConfig ?? {};
	checkGenerationConfig(config);
	const json = config.responseMimeType === 'application/json';
	const declares = (body.tools ?? []).some((tool) => tool.functionDeclarations?.length);
	const model = `models/${body.model}`;
	if (GEMINI_IMAGE.includes(body.model)) {
		if (body.systemInstruction) throw refuse(`Developer instruction is not enabled for ${model}`);
		if (declares) throw refuse(`Function calling is not enabled for ${model}`);
		if (json) throw refuse(`JSON mode is not enabled for ${model}`);
	}
	if (declares && json) {
		throw refuse("Function calling with a response mime type: 'application/json' is unsupported");
	}
	return {
		schema: config.responseSchema === undefined ? undefined : lowerTypes(config.responseSchema),
		json,
		stop: config.stopSequences ?? [],
	};
}

module.exports = { geminiRequest };
