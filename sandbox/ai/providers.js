'use strict';

const crypto = require('node:crypto');
const { onePixelPng } = require('./png');
const { cutAtStop } = require('./chatOptions');
const { instanceAnswer, schemaAnswer } = require('./schemaAnswer');
const { GEMINI_THINKING } = require('./models');
const { forcedTurn, geminiToolTurn, toolTurn } = require('./toolCalls');

/**
 * Deterministic fake model providers: the same request always gets the same answer, so tests can
 * assert exact outputs. Text answers echo the last user text; vectors come from a seeded hash.
 */

/** A valid 1x1 PNG (one teal pixel, RGB 0,128,128). */
const TINY_PNG_BASE64 = onePixelPng([0, 128, 128]).toString('base64');

const DEFAULT_DIMENSIONS = 8;
const FIXED_CREATED = 1767603600; // 2026-01-05T09:00:00Z, like the rest of the fixture

/** @param {unknown} content text of a message in any of the formats */
function plainText(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (typeof part === 'string' ? part : (part?.text ?? '')))
			.filter(Boolean)
			.join(' ');
	}
	return '';
}

function tokens(text) {
	return text.split(/\s+/).filter(Boolean).length;
}

function echo(text, wantsJson) {
	return wantsJson ? JSON.stringify({ echo: text }) : `Echo: ${text}`;
}

function lastUserText(messages, roleKey = 'role', userRole = 'user', read = (m) => m.content) {
	const users = messages.filter((message) => message && message[roleKey] === userRole);
	return plainText(read(users[users.length - 1] ?? {}));
}

/** The text of the system messages, where a prompt may carry a schema too. */
function systemTexts(messages) {
	return messages
		.filter((message) => message?.role === 'system' || message?.role === 'developer')
		.map((message) => plainText(message.content));
}

/** The turn of a tool-calling conversation: a forced function's call, a tool call, or none. */
function toolTurnOf(body, options) {
	if (options.forced) return forcedTurn(body, options.forced, plainText);
	return options.none ? undefined : toolTurn(body, plainText);
}

/**
 * @param {any} body
 * @param {{schema?: object, json: boolean, stop: string[], choices: number, forced?: object,
 *   none?: boolean}} options what `chatOptions` read from the body: a json_schema answers an
 *   instance of that schema, a forced function a call of it
 */
function chatCompletion(body, options) {
	const tooled = toolTurnOf(body, options);
	const text = tooled ? tooled.promptText : lastUserText(body.messages);
	const { schema, json: wantsJson, stop, choices } = options;
	const content = schema
		? instanceAnswer(schema, text)
		: (wantsJson && schemaAnswer(text, systemTexts(body.messages))) ||
			cutAtStop(echo(text, wantsJson), stop);
	const message = tooled ? tooled.message : { role: 'assistant', content, refusal: null };
	const answered = message.content ?? JSON.stringify(message.tool_calls);
	return {
		id: 'chatcmpl-sandbox',
		object: 'chat.completion',
		created: FIXED_CREATED,
		model: body.model,
		choices: Array.from({ length: choices }, (_, index) => ({
			index,
			message,
			finish_reason: tooled ? tooled.finishReason : 'stop',
		})),
		usage: {
			prompt_tokens: tokens(text),
			completion_tokens: tokens(answered),
			total_tokens: tokens(text) + tokens(answered),
		},
	};
}

function responsesOutput(body) {
	const text = typeof body.input === 'string' ? body.input : lastUserText(body.input);
	const wantsJson = /json/.test(String(body.text?.format?.type ?? ''));
	const content = echo(text, wantsJson);
	const half = Math.ceil(content.length / 2);
	return {
		id: 'resp-sandbox',
		object: 'response',
		created_at: FIXED_CREATED,
		status: 'completed',
		model: body.model,
		// A reasoning item and a refusal part around the text: only output_text parts are text.
		output: [
			{ type: 'reasoning', id: 'rs-1', summary: [{ type: 'summary_text', text: 'thinking' }] },
			{
				type: 'message',
				id: 'msg-1',
				role: 'assistant',
				status: 'completed',
				content: [
					{ type: 'output_text', text: content.slice(0, half), annotations: [] },
					{ type: 'output_text', text: content.slice(half), annotations: [] },
				],
			},
		],
		usage: {
			input_tokens: tokens(text),
			output_tokens: tokens(content),
			total_tokens: tokens(text) + tokens(content),
		},
	};
}

/**
 * A thinking model's function call carries a thought signature (opaque to the client, which sends
 * it back with the call on the next turn).
 */
function signed(parts, model) {
	if (!GEMINI_THINKING.includes(model)) return parts;
	return parts.map((part) =>
		part.functionCall
			? {
					...part,
					thoughtSignature: Buffer.from(`sandbox-thought:${part.functionCall.name}`).toString(
						'base64',
					),
				}
			: part,
	);
}

/**
 * @param {any} body
 * @param {{schema?: object, json: boolean, stop: string[]}} options what `geminiRequest` read
 *   from the body: a responseSchema answers an instance of that schema
 */
function generateContent(body, options) {
	const tooled = geminiToolTurn(body);
	const text = tooled
		? tooled.promptText
		: lastUserText(body.contents, 'role', 'user', (content) =>
				(content.parts ?? []).map((part) => part.text ?? '').join(' '),
			);
	const { schema, json: wantsJson, stop } = options;
	const content = schema
		? instanceAnswer(schema, text)
		: (wantsJson && schemaAnswer(text)) || cutAtStop(echo(text, wantsJson), stop);
	const split = content.indexOf(' ') + 1 || content.length;
	const parts = tooled
		? signed(tooled.parts, body.model)
		: [{ text: content.slice(0, split) }, { text: content.slice(split) }];
	const answered = parts.map((part) => part.text ?? JSON.stringify(part.functionCall)).join('');
	return {
		candidates: [
			{
				content: { role: 'model', parts },
				finishReason: 'STOP',
				index: 0,
			},
		],
		usageMetadata: {
			promptTokenCount: tokens(text),
			candidatesTokenCount: tokens(answered),
			totalTokenCount: tokens(text) + tokens(answered),
		},
		modelVersion: body.model,
	};
}

/** @param {{n?: number, output_format?: string}} body */
function images(body) {
	const count = body.n ?? 1;
	return {
		created: FIXED_CREATED,
		data: Array.from({ length: count }, () => ({ b64_json: TINY_PNG_BASE64 })),
	};
}

/** @param {{fileName: string, data: Buffer}} file */
function transcribe(file) {
	return { text: `Transcript of ${file.fileName} (${file.data.length} bytes)` };
}

/** A deterministic unit-free vector for a text: bytes of SHA-256 over model, dimensions and text. */
function vector(model, text, dimensions) {
	const values = [];
	let counter = 0;
	while (values.length < dimensions) {
		const digest = crypto
			.createHash('sha256')
			.update(`${model}|${dimensions}|${counter++}|${text}`)
			.digest();
		for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) {
			values.push(Math.round(((digest.readUInt16BE(i) / 65535) * 2 - 1) * 1e6) / 1e6);
		}
	}
	return values;
}

function toBase64(values) {
	const floats = new Float32Array(values);
	return Buffer.from(floats.buffer).toString('base64');
}

/** @param {{model: string, input: string | string[], encoding_format?: string, dimensions?: number}} body */
function embeddings(body) {
	const inputs = Array.isArray(body.input) ? body.input : [body.input];
	const dimensions = body.dimensions ?? DEFAULT_DIMENSIONS;
	const count = inputs.reduce((sum, text) => sum + tokens(text), 0);
	return {
		object: 'list',
		data: inputs.map((text, index) => {
			const values = vector(body.model, text, dimensions);
			return {
				object: 'embedding',
				index,
				embedding: body.encoding_format === 'base64' ? toBase64(values) : values,
			};
		}),
		model: body.model,
		usage: { prompt_tokens: count, total_tokens: count },
	};
}

module.exports = {
	chatCompletion,
	responsesOutput,
	generateContent,
	images,
	transcribe,
	embeddings,
	vector,
	TINY_PNG_BASE64,
	DEFAULT_DIMENSIONS,
};
