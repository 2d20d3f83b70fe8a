/**
 * Gaps of the LangChain adapter that n8n's AI node SDK wraps a chat model in (@n8n/ai-node-sdk
 * 0.30 and 0.31), closed on the model this node supplies (docs/chat-model.md has the upstream
 * reports of the first two):
 * - Images an agent passes as `image_url` blocks are dropped by the SDK's message converter before
 *   the model sees them. They are handed over as LangChain's standard `image` blocks instead, which
 *   the converter turns into the SDK's `file` parts.
 * - With streaming on, n8n's run data shows only an estimate of the tokens: LangChain reports a
 *   streamed call's usage as `promptTokens`/`completionTokens`, and the adapter's tracer reads only
 *   `input_tokens`/`output_tokens`. Its tracer is taught the other names too.
 * - A result's metadata never reaches n8n's run data, whose tracer keeps each generation's `text`
 *   and `generationInfo` only. How a call asked for a schema's answer (json_schema, function
 *   calling, after a refused format…) is put in the generation's `generationInfo.structuredOutput`.
 * The model `bindTools` returns gets the same fixes. A model not shaped as expected is left as it is.
 */

interface LangChainMessage {
	content: unknown;
}

type MessagesMethod = (messages: LangChainMessage[], ...rest: unknown[]) => unknown;

interface TokenUsage {
	promptTokens: number;
	completionTokens: number;
	totalTokens: number;
}

interface Tracer {
	options?: { tokensUsageParser?: (result: unknown) => TokenUsage };
}

interface Adapter {
	_generate?: MessagesMethod;
	_streamResponseChunks?: MessagesMethod;
	bindTools?: (...args: unknown[]) => unknown;
	callbacks?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null;

/** An OpenAI-style `image_url` block as LangChain's standard image block; other blocks as they are. */
function standardBlock(block: unknown): unknown {
	if (!isObject(block) || block.type !== 'image_url') return block;
	const source = block.image_url;
	const url = typeof source === 'string' ? source : isObject(source) ? source.url : undefined;
	if (typeof url !== 'string' || !url) return block;
	const detail = isObject(source) ? source.detail : undefined;
	return { type: 'image', url, ...(typeof detail === 'string' ? { metadata: { detail } } : {}) };
}

/** The message with its `image_url` blocks in the standard form: a copy, the caller's stays. */
function withStandardImages<T extends LangChainMessage>(message: T): T {
	const content = message.content;
	if (!Array.isArray(content) || !content.some((block) => standardBlock(block) !== block)) {
		return message;
	}
	const copy = Object.assign(Object.create(Object.getPrototypeOf(message) as object), message) as T;
	copy.content = content.map(standardBlock);
	return copy;
}

function convertingImages(method: MessagesMethod | undefined, model: Adapter) {
	if (typeof method !== 'function') return method;
	return (messages: LangChainMessage[], ...rest: unknown[]) =>
		method.call(
			model,
			Array.isArray(messages) ? messages.map(withStandardImages) : messages,
			...rest,
		);
}

/** The call options the adapter hands the model, with a listener for how it asked for a schema. */
function listening(options: unknown, listener: (how: string) => void) {
	return { ...(isObject(options) ? options : {}), onStructuredOutput: listener };
}

function noted(info: unknown, how: string | undefined) {
	return how ? { ...(isObject(info) ? info : {}), structuredOutput: how } : info;
}

/** `_generate` whose generations say how the call asked for a schema's answer. */
function reportingGenerate(method: MessagesMethod | undefined, model: Adapter) {
	if (typeof method !== 'function') return method;
	return async (messages: LangChainMessage[], options: unknown, ...rest: unknown[]) => {
		let how: string | undefined;
		const result = await method.call(
			model,
			messages,
			listening(options, (note) => (how = note)),
			...rest,
		);
		const generations = isObject(result) ? result.generations : undefined;
		if (how && Array.isArray(generations)) {
			for (const generation of generations) {
				if (isObject(generation)) generation.generationInfo = noted(generation.generationInfo, how);
			}
		}
		return result;
	};
}

/** `_streamResponseChunks` whose finishing chunk says how the call asked for a schema's answer. */
function reportingStream(method: MessagesMethod | undefined, model: Adapter) {
	if (typeof method !== 'function') return method;
	return async function* (messages: LangChainMessage[], options: unknown, ...rest: unknown[]) {
		let how: string | undefined;
		const chunks = method.call(
			model,
			messages,
			listening(options, (note) => (how = note)),
			...rest,
		);
		for await (const chunk of chunks as AsyncIterable<unknown>) {
			if (
				isObject(chunk) &&
				isObject(chunk.generationInfo) &&
				'finish_reason' in chunk.generationInfo
			) {
				chunk.generationInfo = noted(chunk.generationInfo, how);
			}
			yield chunk;
		}
	};
}

/** Usage as LangChain's streamed path reports it, when the tracer's own reading found none. */
function readingStreamedUsage(parse: (result: unknown) => TokenUsage) {
	return (result: unknown): TokenUsage => {
		const parsed = parse(result);
		if (parsed.completionTokens > 0) return parsed;
		const output = isObject(result) ? result.llmOutput : undefined;
		const usage = isObject(output) ? output.tokenUsage : undefined;
		if (!isObject(usage)) return parsed;
		const promptTokens = Number(usage.promptTokens ?? 0);
		const completionTokens = Number(usage.completionTokens ?? 0);
		if (!(completionTokens > 0)) return parsed;
		return {
			...parsed,
			promptTokens,
			completionTokens,
			totalTokens: promptTokens + completionTokens,
		};
	};
}

function fixTracers(callbacks: unknown) {
	if (!Array.isArray(callbacks)) return;
	for (const tracer of callbacks as Tracer[]) {
		const parse = tracer?.options?.tokensUsageParser;
		if (typeof parse === 'function')
			tracer.options!.tokensUsageParser = readingStreamedUsage(parse);
	}
}

export function fixAdapter<T>(supplied: T): T {
	if (!isObject(supplied)) return supplied;
	const model = supplied as Adapter;
	model._generate = reportingGenerate(convertingImages(model._generate, model), model);
	model._streamResponseChunks = reportingStream(
		convertingImages(model._streamResponseChunks, model),
		model,
	);
	fixTracers(model.callbacks);
	const bindTools = model.bindTools;
	if (typeof bindTools === 'function') {
		model.bindTools = (...args: unknown[]) => fixAdapter(bindTools.apply(model, args));
	}
	return supplied;
}
