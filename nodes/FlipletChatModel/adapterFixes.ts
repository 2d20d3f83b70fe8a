/**
 * Two gaps of the LangChain adapter that n8n's AI node SDK wraps a chat model in (@n8n/ai-node-sdk
 * 0.30 and 0.31), closed on the model this node supplies (docs/chat-model.md has the upstream
 * reports):
 * - Images an agent passes as `image_url` blocks are dropped by the SDK's message converter before
 *   the model sees them. They are handed over as LangChain's standard `image` blocks instead, which
 *   the converter turns into the SDK's `file` parts.
 * - With streaming on, n8n's run data shows only an estimate of the tokens: LangChain reports a
 *   streamed call's usage as `promptTokens`/`completionTokens`, and the adapter's tracer reads only
 *   `input_tokens`/`output_tokens`. Its tracer is taught the other names too.
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
	model._generate = convertingImages(model._generate, model);
	model._streamResponseChunks = convertingImages(model._streamResponseChunks, model);
	fixTracers(model.callbacks);
	const bindTools = model.bindTools;
	if (typeof bindTools === 'function') {
		model.bindTools = (...args: unknown[]) => fixAdapter(bindTools.apply(model, args));
	}
	return supplied;
}
