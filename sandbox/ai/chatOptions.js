'use strict';

const { badRequest, isObject } = require('../http');
const { REFUSED_FORMATS } = require('./models');

/**
 * The chat-completions options the platform passes through to the provider (`Fliplet/fliplet-cli:
 * docs/API/core/ai.md`: top_p, n, stop, presence_penalty, frequency_penalty; `seed` as another
 * parameter of the provider's format), checked as the provider checks them, and the structured
 * output the platform's AI widget asks for (`response_format: {type: 'json_schema', json_schema:
 * {name, strict, schema}}`, `Fliplet/fliplet-widget-ai-feature: js/interface.js`). The provider's
 * refusals reach the client as the platform's 400.
 */

/** Reasoning models (o-series, GPT-5) take only their default sampling. */
const REASONING_MODEL = /^(o\d|gpt-5)/;
const SAMPLING_OPTIONS = ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'];

function numberIn(body, name, min, max) {
	const value = body[name];
	if (value === undefined) return;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
		throw badRequest(`"${name}" must be a number from ${min} to ${max}.`, { type: 'ai.provider' });
	}
}

function checkStop(stop) {
	if (stop === undefined || stop === null) return;
	const list = Array.isArray(stop) ? stop : [stop];
	if (list.length > 4 || !list.every((entry) => typeof entry === 'string' && entry !== '')) {
		throw badRequest('"stop" must be a string or an array of up to 4 strings.', {
			type: 'ai.provider',
		});
	}
}

function checkSampling(body) {
	if (!REASONING_MODEL.test(body.model)) return;
	for (const name of SAMPLING_OPTIONS) {
		if (body[name] === undefined || (name === 'temperature' && body[name] === 1)) continue;
		throw badRequest(
			`Unsupported parameter: "${name}" is not supported with the model ${body.model}.`,
			{
				type: 'ai.provider',
			},
		);
	}
}

/**
 * What keeps a JSON schema from strict mode, or undefined when it allows it: every object lists
 * all its properties as required and sets `additionalProperties: false`, down to the leaves.
 */
function strictProblem(schema, path = 'schema') {
	if (!isObject(schema)) return undefined;
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	if (types.includes('object')) {
		const keys = Object.keys(isObject(schema.properties) ? schema.properties : {});
		const required = Array.isArray(schema.required) ? schema.required : [];
		if (schema.additionalProperties !== false) {
			return `${path}: "additionalProperties" must be false in strict mode`;
		}
		const missing = keys.find((key) => !required.includes(key));
		if (missing !== undefined) return `${path}: "${missing}" must be required in strict mode`;
	}
	const children = [
		...Object.entries(isObject(schema.properties) ? schema.properties : {}).map(([key, value]) => [
			`${path}.${key}`,
			value,
		]),
		...(schema.items ? [[`${path}[]`, schema.items]] : []),
		...['anyOf', '$defs', 'definitions'].flatMap((key) =>
			Object.entries(schema[key] ?? {}).map(([name, value]) => [`${path}.${key}.${name}`, value]),
		),
	];
	for (const [childPath, child] of children) {
		const problem = strictProblem(child, childPath);
		if (problem) return problem;
	}
	return undefined;
}

/** The JSON schema a `json_schema` response format asks for, after checking it as the provider does. */
function jsonSchemaFormat(format) {
	const spec = format.json_schema;
	if (!isObject(spec) || typeof spec.name !== 'string' || !/^[\w-]{1,64}$/.test(spec.name)) {
		throw badRequest(
			'"response_format.json_schema.name" is required: letters, digits, _ and - (at most 64).',
			{ type: 'ai.provider' },
		);
	}
	if (!isObject(spec.schema)) {
		throw badRequest('"response_format.json_schema.schema" must be a JSON schema object.', {
			type: 'ai.provider',
		});
	}
	const problem = spec.strict === true ? strictProblem(spec.schema) : undefined;
	if (problem) {
		throw badRequest(`Invalid schema for response_format "${spec.name}": ${problem}.`, {
			type: 'ai.provider',
		});
	}
	return spec.schema;
}

const STRUCTURED_OUTPUTS_GUIDE =
	' Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs';

/**
 * Refuses a response format the model does not take, with OpenAI's message ("Invalid parameter:
 * 'response_format' of type 'json_schema' is not supported with this model."): a 400 before any
 * generation, so nothing is charged. `parameter` is where the format was given.
 */
function refuseFormat(model, type, parameter) {
	if (!(REFUSED_FORMATS[model] ?? []).includes(type)) return;
	const guide = type === 'json_schema' ? STRUCTURED_OUTPUTS_GUIDE : '';
	throw badRequest(
		`Invalid parameter: '${parameter}' of type '${type}' is not supported with this model.${guide}`,
		{ type: 'ai.provider' },
	);
}

const functionsOf = (body) =>
	(Array.isArray(body.tools) ? body.tools : []).filter(
		(tool) => tool?.type === 'function' && isObject(tool.function),
	);

/**
 * Checks the declared functions (a strict one's parameters as strict mode takes them) and
 * `tool_choice`, as OpenAI does; returns the function a named choice forces, if any, and whether
 * the choice is `none`.
 */
function toolChoice(body) {
	const functions = functionsOf(body).map((tool) => tool.function);
	for (const declared of functions) {
		const problem = declared.strict === true ? strictProblem(declared.parameters ?? {}) : undefined;
		if (problem) {
			throw badRequest(`Invalid schema for function '${declared.name}': ${problem}.`, {
				type: 'ai.provider',
			});
		}
	}
	const choice = body.tool_choice;
	if (choice === undefined || choice === null) return { forced: undefined, none: false };
	if (!functions.length) {
		throw badRequest(
			"Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
			{ type: 'ai.provider' },
		);
	}
	if (['none', 'auto', 'required'].includes(choice)) {
		return { forced: undefined, none: choice === 'none' };
	}
	const name = isObject(choice) && choice.type === 'function' ? choice.function?.name : undefined;
	const forced = functions.find((declared) => declared.name === name);
	if (!forced) {
		throw badRequest(
			`Invalid value for 'tool_choice': no function named ${JSON.stringify(name)} was declared in 'tools'.`,
			{ type: 'ai.provider' },
		);
	}
	return { forced, none: false };
}

/**
 * Checks a chat-completions body's pass-through options, structured output and tool choice;
 * returns what the answer must follow: the schema (json_schema), JSON mode, the stop sequences,
 * the choices, and the function a named tool choice forces.
 */
function chatOptions(body) {
	numberIn(body, 'temperature', 0, 2);
	numberIn(body, 'top_p', 0, 1);
	numberIn(body, 'presence_penalty', -2, 2);
	numberIn(body, 'frequency_penalty', -2, 2);
	if (body.seed !== undefined && !Number.isInteger(body.seed)) {
		throw badRequest('"seed" must be a whole number.', { type: 'ai.provider' });
	}
	if (body.n !== undefined && (!Number.isInteger(body.n) || body.n < 1 || body.n > 128)) {
		throw badRequest('"n" must be a whole number from 1 to 128.', { type: 'ai.provider' });
	}
	checkStop(body.stop);
	checkSampling(body);
	const format = isObject(body.response_format) ? body.response_format : {};
	refuseFormat(body.model, format.type, 'response_format');
	const schema = format.type === 'json_schema' ? jsonSchemaFormat(format) : undefined;
	return {
		schema,
		json: format.type === 'json_object' || schema !== undefined,
		stop: body.stop === undefined || body.stop === null ? [] : [body.stop].flat(),
		choices: body.n ?? 1,
		...toolChoice(body),
	};
}

/** The responses format's structured output (`text.format`), refused as on chat completions. */
function responsesOptions(body) {
	const format = isObject(body.text) && isObject(body.text.format) ? body.text.format : {};
	refuseFormat(body.model, format.type, 'text.format');
	return {};
}

/** The text cut before the first stop sequence it holds (the sequence itself is not returned). */
function cutAtStop(text, stop) {
	const cuts = stop.map((sequence) => text.indexOf(sequence)).filter((at) => at >= 0);
	return cuts.length ? text.slice(0, Math.min(...cuts)) : text;
}

module.exports = { chatOptions, responsesOptions, cutAtStop, strictProblem };
