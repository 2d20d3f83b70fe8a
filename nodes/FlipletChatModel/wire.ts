import type {
	GenerateResult,
	Message,
	MessageContent,
	StreamChunk,
	Tool,
	TokenUsage,
	FinishReason,
} from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import type { InvalidToolCall, JsonSchemaOf } from './format';

/**
 * Pure mapping between n8n's AI messages (the SDK's provider-neutral shapes) and the
 * chat-completions format the platform's completions endpoint takes and answers.
 */

export interface WireToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export type WirePart =
	| { type: 'text'; text: string }
	| { type: 'image_url'; image_url: { url: string; detail?: string } };

export interface WireMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string | WirePart[] | null;
	name?: string;
	tool_calls?: WireToolCall[];
	tool_call_id?: string;
}

/**
 * A message, tool or setting this model cannot send: the caller turns it into an error saying so,
 * with what to change when `description` says it.
 */
export class UnsupportedInput extends Error {
	constructor(
		message: string,
		readonly description?: string,
	) {
		super(message);
	}
}

/** Where a file part's content is: the address it was given by, or its data (base64). */
export type FileSource = { url: string; detail?: string } | { mediaType: string; data: string };

export function fileSource(part: Extract<MessageContent, { type: 'file' }>): FileSource {
	const { url, detail } = part.providerMetadata ?? {};
	if (typeof url === 'string' && url) {
		return { url, ...(typeof detail === 'string' ? { detail } : {}) };
	}
	const data =
		typeof part.data === 'string' ? part.data : Buffer.from(part.data).toString('base64');
	return { mediaType: part.mediaType ?? '', data };
}

function imagePart(part: Extract<MessageContent, { type: 'file' }>): WirePart {
	const source = fileSource(part);
	if ('url' in source) return { type: 'image_url', image_url: source };
	if (!source.mediaType.startsWith('image/')) {
		throw new UnsupportedInput(
			`A message holds a file of type "${source.mediaType || 'unknown'}": only images can be sent to the model.`,
		);
	}
	return {
		type: 'image_url',
		image_url: { url: `data:${source.mediaType};base64,${source.data}` },
	};
}

/** Text and images of a system or user message: one string when it is only text. */
function contentOf(parts: MessageContent[]): string | WirePart[] {
	const wire: WirePart[] = [];
	for (const part of parts) {
		if (part.type === 'text') wire.push({ type: 'text', text: part.text });
		else if (part.type === 'file') wire.push(imagePart(part));
	}
	if (wire.every((part) => part.type === 'text')) {
		return wire.map((part) => (part as { text: string }).text).join('\n');
	}
	return wire;
}

/** A tool's result as the text the model reads: text as is, anything else as JSON. */
export function resultText(result: unknown): string {
	if (typeof result === 'string') return result;
	if (Array.isArray(result) && result.every((part) => part?.type === 'text')) {
		return result.map((part: { text: string }) => part.text).join('\n');
	}
	return JSON.stringify(result ?? null);
}

function assistantMessage(message: Message): WireMessage {
	const text = message.content
		.filter((part): part is Extract<MessageContent, { type: 'text' }> => part.type === 'text')
		.map((part) => part.text)
		.join('');
	const calls: WireToolCall[] = [];
	for (const part of message.content) {
		if (part.type === 'tool-call') {
			calls.push({
				id: part.toolCallId ?? '',
				type: 'function',
				function: { name: part.toolName, arguments: part.input },
			});
		} else if (part.type === 'invalid-tool-call') {
			// Kept so the tool message answering it still follows a call with its id.
			calls.push({
				id: part.toolCallId ?? '',
				type: 'function',
				function: { name: part.name ?? '', arguments: part.args ?? '' },
			});
		}
	}
	return {
		role: 'assistant',
		content: text || (calls.length ? null : ''),
		...(calls.length ? { tool_calls: calls } : {}),
	};
}

/**
 * n8n's messages as chat-completions messages. A tool message becomes one `tool` message per
 * result. Reasoning, citations and provider blocks have no place in a chat-completions request.
 */
export function toWireMessages(messages: Message[]): WireMessage[] {
	return messages.flatMap((message): WireMessage[] => {
		if (message.role === 'assistant') return [assistantMessage(message)];
		if (message.role === 'tool') {
			return message.content
				.filter(
					(part): part is Extract<MessageContent, { type: 'tool-result' }> =>
						part.type === 'tool-result',
				)
				.map((part) => ({
					role: 'tool',
					tool_call_id: part.toolCallId,
					content: resultText(part.result),
				}));
		}
		return [
			{
				role: message.role,
				content: contentOf(message.content),
				...(message.name ? { name: message.name } : {}),
			},
		];
	});
}

export interface DeclaredTool {
	name: string;
	description?: string;
	/** The parameters as JSON schema (`toJsonSchema` turns a Zod schema into one). */
	parameters: unknown;
	strict?: boolean;
}

/** n8n's function tools with their parameters; a provider's built-in tool is refused. */
export function declaredTools(tools: Tool[], toJsonSchema: JsonSchemaOf): DeclaredTool[] {
	return tools.map((tool) => {
		if (tool.type !== 'function') {
			throw new UnsupportedInput(
				`The tool "${tool.name}" is a provider's built-in tool: the Fliplet Chat Model only calls n8n's own tools.`,
			);
		}
		return {
			name: tool.name,
			...(tool.description ? { description: tool.description } : {}),
			parameters: toJsonSchema(tool) ?? { type: 'object', properties: {} },
			...(tool.strict !== undefined ? { strict: tool.strict } : {}),
		};
	});
}

/** Declared tools in the chat-completions shape. */
export function toWireTools(tools: Tool[], toJsonSchema: JsonSchemaOf): IDataObject[] {
	return declaredTools(tools, toJsonSchema).map(({ parameters, ...declared }) => ({
		type: 'function',
		function: { ...declared, parameters: parameters as IDataObject },
	}));
}

const FINISH: Record<string, FinishReason> = {
	stop: 'stop',
	length: 'length',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
	content_filter: 'content-filter',
};

function usageOf(usage: unknown): TokenUsage | undefined {
	if (!usage || typeof usage !== 'object') return undefined;
	const u = usage as Record<string, unknown> & {
		prompt_tokens_details?: { cached_tokens?: number };
		completion_tokens_details?: { reasoning_tokens?: number };
	};
	const promptTokens = Number(u.prompt_tokens ?? 0);
	const completionTokens = Number(u.completion_tokens ?? 0);
	const cached = u.prompt_tokens_details?.cached_tokens;
	const reasoning = u.completion_tokens_details?.reasoning_tokens;
	return {
		promptTokens,
		completionTokens,
		totalTokens: Number(u.total_tokens ?? promptTokens + completionTokens),
		...(typeof cached === 'number' ? { inputTokenDetails: { cacheRead: cached } } : {}),
		...(typeof reasoning === 'number' ? { outputTokenDetails: { reasoning } } : {}),
	};
}

function textOf(content: unknown): string | undefined {
	if (content === null || content === undefined) return '';
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return undefined;
	return content
		.filter((part) => part?.type === 'text' && typeof part.text === 'string')
		.map((part: { text: string }) => part.text)
		.join('');
}

/**
 * A tool call's arguments (JSON text, or an object already parsed) as the JSON object text they
 * must be, or undefined when they are not a JSON object. No arguments at all (nothing, or an
 * empty string) is the empty object.
 */
export function argumentsText(args: unknown): string | undefined {
	if (args === undefined || args === null || (typeof args === 'string' && !args.trim()))
		return '{}';
	let parsed: unknown;
	try {
		parsed = typeof args === 'string' ? JSON.parse(args) : args;
	} catch {
		return undefined;
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
	return typeof args === 'string' ? args : JSON.stringify(args);
}

/**
 * The platform's chat-completions answer as the SDK's result, or undefined when the answer does
 * not have that shape (the caller reports it). A refusal is kept as the answer's text. A tool call
 * whose arguments are not a JSON object makes the whole answer an InvalidToolCall: it is never
 * run with `{}` instead.
 */
export function fromWireAnswer(
	response: IDataObject,
): GenerateResult | InvalidToolCall | undefined {
	const choice = Array.isArray(response.choices) ? (response.choices[0] as IDataObject) : undefined;
	const message = choice?.message as IDataObject | undefined;
	if (!message || typeof message !== 'object') return undefined;
	const text = textOf(message.content);
	if (text === undefined) return undefined;
	const refusal = typeof message.refusal === 'string' ? message.refusal : '';
	const content: MessageContent[] = [];
	if (text || refusal) content.push({ type: 'text', text: text || refusal });
	const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];
	for (const call of calls) {
		const input = argumentsText(call.function?.arguments);
		const toolName = call.function?.name ?? '';
		if (input === undefined) {
			return { invalidToolCall: { toolName, args: String(call.function?.arguments) } };
		}
		content.push({ type: 'tool-call', toolCallId: call.id, toolName, input });
	}
	const reason = typeof choice?.finish_reason === 'string' ? choice.finish_reason : '';
	return {
		id: typeof response.id === 'string' ? response.id : undefined,
		finishReason: FINISH[reason] ?? (calls.length ? 'tool-calls' : 'other'),
		usage: usageOf(response.usage),
		message: { role: 'assistant', content },
		rawResponse: response,
	};
}

/** One whole answer as stream chunks: its text, each tool call, then the finish with usage. */
export function* asStreamChunks(result: GenerateResult): Generator<StreamChunk> {
	for (const part of result.message.content) {
		if (part.type === 'text' && part.text) yield { type: 'text-delta', delta: part.text };
		if (part.type === 'tool-call') {
			yield {
				type: 'tool-call-delta',
				id: part.toolCallId,
				name: part.toolName,
				argumentsDelta: part.input,
			};
		}
	}
	yield { type: 'finish', finishReason: result.finishReason ?? 'stop', usage: result.usage };
}
