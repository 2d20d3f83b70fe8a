'use strict';

/**
 * Deterministic tool calling for chat-completions requests that declare `tools`, so tests can
 * assert an agent's round trip:
 * - the last message is the user's: one `tool_calls` entry for the declared tool whose name the
 *   user's text mentions first (arguments: the first JSON object in that text, else {});
 * - the last message is a tool result: text quoting that result.
 * Anything else (no tool mentioned, an assistant turn last) is left to the plain answer.
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
		const mentioned = tools
			.map((name) => ({ name, at: mentionAt(text, name) }))
			.filter(({ at }) => at >= 0)
			.sort((a, b) => a.at - b.at);
		if (!mentioned.length) return undefined;
		const turn = messages.filter((message) => message?.role === 'assistant').length + 1;
		return {
			message: {
				role: 'assistant',
				content: null,
				refusal: null,
				tool_calls: [
					{
						id: `call_sandbox_${turn}`,
						type: 'function',
						function: { name: mentioned[0].name, arguments: JSON.stringify(jsonObjectIn(text)) },
					},
				],
			},
			finishReason: 'tool_calls',
			promptText: text,
		};
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

module.exports = { toolTurn, jsonObjectIn };
