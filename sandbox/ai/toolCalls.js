'use strict';

const { instanceAnswer } = require('./schemaAnswer');

/**
 * Deterministic tool calling for completions requests that declare tools, so tests can assert an
 * agent's round trip, in the chat-completions format (`tools` of `{type: 'function', function}`)
 * and in Gemini's generate-content format (`tools: [{functionDeclarations}]`, the shape of
 * `Fliplet/fliplet-cli: docs/API/core/ai.md`, "Using Gemini Models"):
 * - the last turn is the user's: one call of the declared tool whose name the user's text
 *   mentions first (arguments: the first JSON object in that text, else {});
 * - the last turn holds tool results: text quoting them.
 * Anything else (no tool mentioned, a model turn last) is left to the plain answer.
 */

function toolNames(tools) {
	return tools
		.map((tool) => tool?.function?.name)
		.filter((name) => typeof name === 'string' && name !== '');
}

/** Where the text mentions a tool (its name, or with `_` read as spaces), case-insensitively. */
function mentionAt(text, name) {
	const lower = text.toLowerCase();
	const spots = [name, name.replace(/_/g, ' ')].map((form) => lower.indexOf(form.toLowerCase()));
	const found = spots.filter((spot) => spot >= 0);
	return found.length ? Math.min(...found) : -1;
}

/** The first balanced `{...}` of the text that parses as a JSON object, else {}. */
function jsonObjectIn(text) {
	for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
		let depth = 0;
		let inString = false;
		for (let i = start; i < text.length; i++) {
			const char = text[i];
			if (inString) {
				if (char === '\\') i++;
				else if (char === '"') inString = false;
			} else if (char === '"') inString = true;
			else if (char === '{') depth++;
			else if (char === '}' && --depth === 0) {
				try {
					const value = JSON.parse(text.slice(start, i + 1));
					if (value && typeof value === 'object' && !Array.isArray(value)) return value;
				} catch {
					// not JSON: try the next brace
				}
				break;
			}
		}
	}
	return {};
}

/** The declared tool the text mentions first, or undefined. */
function firstMentioned(names, text) {
	const mentioned = names
		.map((name) => ({ name, at: mentionAt(text, name) }))
		.filter(({ at }) => at >= 0)
		.sort((a, b) => a.at - b.at);
	return mentioned[0]?.name;
}

/**
 * The assistant turn that makes one call of `name` with `args` (JSON text): its id counts the
 * assistant turns so far.
 */
function callTurn(messages, name, args, finishReason, promptText) {
	const turn = messages.filter((message) => message?.role === 'assistant').length + 1;
	return {
		message: {
			role: 'assistant',
			content: null,
			refusal: null,
			tool_calls: [
				{ id: `call_sandbox_${turn}`, type: 'function', function: { name, arguments: args } },
			],
		},
		finishReason,
		promptText,
	};
}

/**
 * The assistant message that calls the function a named `tool_choice` forces, as OpenAI answers
 * one: a single call whose arguments are an instance of the function's parameters (strings echo
 * the user's first line), and `finish_reason: "stop"`.
 */
function forcedTurn(body, forced, plainText) {
	const users = body.messages.filter((message) => message?.role === 'user');
	const text = plainText(users[users.length - 1]?.content ?? '');
	const args = instanceAnswer(forced.parameters ?? { type: 'object' }, text);
	return callTurn(body.messages, forced.name, args, 'stop', text);
}

/**
 * The assistant message for a tool-calling conversation, or undefined when the plain answer
 * applies. `plainText` reads a message's content in any of its shapes.
 */
function toolTurn(body, plainText) {
	const tools = Array.isArray(body.tools) ? toolNames(body.tools) : [];
	const messages = body.messages;
	const last = messages[messages.length - 1];
	if (!tools.length || !last) return undefined;
	if (last.role === 'user') {
		const text = plainText(last.content);
		const name = firstMentioned(tools, text);
		if (!name) return undefined;
		return callTurn(messages, name, JSON.stringify(jsonObjectIn(text)), 'tool_calls', text);
	}
	if (last.role === 'tool') {
		const call = messages
			.flatMap((message) => (message?.role === 'assistant' ? (message.tool_calls ?? []) : []))
			.find((candidate) => candidate?.id === last.tool_call_id);
		const result = plainText(last.content);
		const name = call?.function?.name ?? 'the tool';
		return {
			message: { role: 'assistant', content: `${name} answered: ${result}`, refusal: null },
			finishReason: 'stop',
			promptText: result,
		};
	}
	return undefined;
}

/** A function response's result as text: its `output` (or `error`), else the whole response. */
function responseText(response) {
	const result = response?.output ?? response?.error ?? response;
	return typeof result === 'string' ? result : JSON.stringify(result);
}

/**
 * The model turn's parts for a generate-content conversation with `functionDeclarations`, or
 * undefined when the plain answer applies. Gemini's calls carry a name and arguments, no id: the
 * function responses that answer them name the function.
 */
function geminiToolTurn(body) {
	const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap(
		(tool) => tool?.functionDeclarations ?? [],
	);
	const names = tools.map((tool) => tool?.name).filter((name) => typeof name === 'string');
	const last = body.contents[body.contents.length - 1];
	if (!names.length || !last || last.role === 'model') return undefined;
	const parts = last.parts ?? [];
	const responses = parts.filter((part) => part?.functionResponse);
	if (responses.length) {
		const answers = responses.map(
			({ functionResponse }) =>
				`${functionResponse.name} answered: ${responseText(functionResponse.response)}`,
		);
		const text = answers.join('\n');
		return { parts: [{ text }], promptText: text };
	}
	const text = parts.map((part) => part?.text ?? '').join(' ');
	const name = firstMentioned(names, text);
	if (!name) return undefined;
	return { parts: [{ functionCall: { name, args: jsonObjectIn(text) } }], promptText: text };
}

module.exports = { forcedTurn, toolTurn, geminiToolTurn, jsonObjectIn };
