import type { IDataObject } from 'n8n-workflow';

import { isObject } from './isObject';

export type CompletionFormat = 'chatCompletions' | 'responses' | 'generateContent';

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant';
	content: string;
}

export interface SimpleCompletion {
	format: CompletionFormat;
	model: string;
	systemMessage?: string;
	messages: ChatMessage[];
	temperature?: number;
	maxTokens?: number;
	json?: boolean;
}

/**
 * The completions format a hand-written body selects, or a reason it is refused. Mirrors the
 * platform's rules: one input format, `input` only with `useResponses: true` (`false` is allowed
 * with `messages`), no streaming over HTTP, no legacy `prompt` completions, no `development` flag.
 */
export function formatOfBody(
	body: IDataObject,
): { format: CompletionFormat } | { problem: string; fix: string } {
	if ('development' in body) {
		return {
			problem: 'The body holds a "development" parameter',
			fix: 'Remove "development": the REST API refuses it.',
		};
	}
	if (body.stream !== undefined && body.stream !== false) {
		return {
			problem: 'Streaming is not supported',
			fix: 'Remove "stream": streamed results arrive over sockets, not in the HTTP response, so this node cannot read them.',
		};
	}
	if (body.prompt !== undefined && body.prompt !== null && body.prompt !== '') {
		return {
			problem: 'Legacy "prompt" completions are retired',
			fix: 'Use the chat-completions format instead: {"model": "...", "messages": [{"role": "user", "content": "..."}]}.',
		};
	}
	if (typeof body.model !== 'string' || !body.model.trim()) {
		return {
			problem: 'The body has no "model"',
			fix: 'Add an explicit "model", e.g. "gpt-4o-mini".',
		};
	}
	const present = (['messages', 'input', 'contents'] as const).filter(
		(key) => body[key] !== undefined,
	);
	if (present.length !== 1) {
		return {
			problem: present.length ? `The body mixes ${present.join(' and ')}` : 'The body has no input',
			fix: 'Give exactly one of "messages" (chat completions), "input" with "useResponses": true (responses) or "contents" (generate content).',
		};
	}
	if (present[0] === 'input') {
		return body.useResponses === true
			? { format: 'responses' }
			: {
					problem: '"input" needs "useResponses": true',
					fix: 'Add "useResponses": true to use the responses format.',
				};
	}
	// Fliplet's docs show `useResponses: false` beside `messages`: "not the responses format".
	const chatNotResponses = present[0] === 'messages' && body.useResponses === false;
	if (body.useResponses !== undefined && !chatNotResponses) {
		return {
			problem: '"useResponses" is only for the responses format',
			fix: 'Remove "useResponses", or send "input" instead.',
		};
	}
	const format = present[0] === 'contents' ? 'generateContent' : 'chatCompletions';
	const provider = body.aiProvider ?? (format === 'generateContent' ? GEMINI : 'openai');
	if (
		(provider === GEMINI) !== (format === 'generateContent') ||
		!AI_PROVIDERS.includes(provider)
	) {
		return {
			problem: `"aiProvider": ${JSON.stringify(body.aiProvider)} does not go with "${present[0]}"`,
			fix: 'Send "contents" with "aiProvider": "gemini" (Google Gemini), or "messages" without "aiProvider" (or with "openai").',
		};
	}
	return { format };
}

const GEMINI = 'gemini';
const AI_PROVIDERS: unknown[] = ['openai', GEMINI];

/**
 * The body as the platform's JS API sends it to the completions endpoint: a Gemini body
 * (`contents`) carries `aiProvider: 'gemini'` ("For Gemini: You must provide 'contents' and set
 * 'aiProvider' to 'gemini'", `Fliplet/fliplet-widget-ai-feature: js/system-prompt.js`;
 * `Fliplet/fliplet-cli: docs/API/core/ai.md`, "Using Gemini Models"); without it the platform
 * routes the body to OpenAI, which refuses it.
 */
export function withAiProvider(format: CompletionFormat, body: IDataObject): IDataObject {
	return format === 'generateContent' && body.aiProvider === undefined
		? { ...body, aiProvider: GEMINI }
		: body;
}

/** The request body of the chosen format for the simple fields. */
export function buildCompletionBody(options: SimpleCompletion): IDataObject {
	const { format, model, systemMessage, messages, temperature, maxTokens, json } = options;
	if (format === 'responses') {
		return compact({
			model,
			useResponses: true,
			instructions: systemMessage || undefined,
			input: messages.map(({ role, content }) => ({ role, content })),
			temperature,
			max_output_tokens: maxTokens,
			text: json ? { format: { type: 'json_object' } } : undefined,
		});
	}
	if (format === 'generateContent') {
		// Gemini has no system role in contents: system turns join the system instruction.
		const instructions = [
			systemMessage,
			...messages.filter(({ role }) => role === 'system').map(({ content }) => content),
		].filter((text): text is string => !!text);
		const generationConfig = compact({
			temperature,
			maxOutputTokens: maxTokens,
			responseMimeType: json ? 'application/json' : undefined,
		});
		return compact({
			model,
			systemInstruction: instructions.length
				? { parts: instructions.map((text) => ({ text })) }
				: undefined,
			contents: messages
				.filter(({ role }) => role !== 'system')
				.map(({ role, content }) => ({
					role: role === 'assistant' ? 'model' : 'user',
					parts: [{ text: content }],
				})),
			generationConfig: Object.keys(generationConfig).length ? generationConfig : undefined,
		});
	}
	return compact({
		model,
		messages: [...(systemMessage ? [{ role: 'system', content: systemMessage }] : []), ...messages],
		temperature,
		max_completion_tokens: maxTokens,
		response_format: json ? { type: 'json_object' } : undefined,
	});
}

/** The object without its undefined values. */
export function compact(object: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

function textParts(parts: unknown, keep: (part: IDataObject) => boolean): string[] | undefined {
	if (!Array.isArray(parts)) return undefined;
	return parts
		.filter(
			(part): part is IDataObject => isObject(part) && keep(part) && typeof part.text === 'string',
		)
		.map((part) => part.text as string);
}

/**
 * The generated text at the place each format puts it, or undefined when the response does not
 * have that shape (the caller reports it rather than guessing). A response with the right shape
 * but no text (a refusal, only tool calls) gives ''.
 */
export function extractText(format: CompletionFormat, response: unknown): string | undefined {
	if (!isObject(response)) return undefined;
	if (format === 'chatCompletions') {
		const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
		if (!isObject(choice) || !isObject(choice.message)) return undefined;
		const content = choice.message.content;
		if (content === null || content === undefined) return '';
		if (typeof content === 'string') return content;
		return textParts(content, (part) => part.type === 'text')?.join('');
	}
	if (format === 'responses') {
		if (!Array.isArray(response.output)) return undefined;
		return response.output
			.filter(
				(item): item is IDataObject =>
					isObject(item) && item.type === 'message' && item.role === 'assistant',
			)
			.flatMap((item) => textParts(item.content, (part) => part.type === 'output_text') ?? [])
			.join('');
	}
	if (!Array.isArray(response.candidates)) return undefined;
	const [candidate] = response.candidates as unknown[];
	if (candidate === undefined) return '';
	if (!isObject(candidate)) return undefined;
	if (!isObject(candidate.content)) return '';
	return textParts(candidate.content.parts, () => true)?.join('') ?? '';
}

/** Model and usage as each format reports them. */
export function responseDetails(response: IDataObject): IDataObject {
	return compact({
		model: response.model ?? response.modelVersion,
		usage: response.usage ?? response.usageMetadata,
	});
}
