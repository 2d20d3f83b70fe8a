import type {
	ChatModel,
	ChatModelConfig,
	GenerateResult,
	Message,
	StreamChunk,
	Tool,
} from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { chatCompletions } from './chatCompletions';
import type {
	Attempt,
	InvalidToolCall,
	JsonSchemaOf,
	ModelSettings,
	Requests,
	WireFormat,
} from './format';
import { generateContent } from './generateContent';
import { isGeminiModel } from './models';
import { asStreamChunks, type UnsupportedInput } from './wire';

export type { ModelSettings } from './format';

/**
 * What the caller adds to one call. The SDK's adapter hands LangChain's call options over as they
 * are: its `signal` (the SDK's type calls it `abortSignal`) and its `stop` (`stopSequences`).
 */
export interface CallConfig extends ChatModelConfig {
	signal?: AbortSignal;
	stop?: string[];
	/**
	 * Told how the call asked for a schema's answer (json_schema, function calling…), for the run
	 * data: the node's adapter fix passes it (adapterFixes.ts).
	 */
	onStructuredOutput?: (how: string) => void;
}

export interface ModelPorts {
	/**
	 * Sends one completions request (through the package's transport) and returns its JSON. The
	 * signal aborts it in flight; once it has fired, nothing is sent.
	 */
	send(body: IDataObject, abortSignal: AbortSignal | undefined): Promise<IDataObject>;
	/** A function tool's parameters as JSON schema (n8n's tools may carry Zod schemas). */
	toJsonSchema: JsonSchemaOf;
	/**
	 * Whether a failed request is the platform refusing the response format (a 400 before any
	 * generation): only then is the call's fallback sent.
	 */
	refusedFormat(error: unknown, format: string): boolean;
	/** The fallback's failure, saying that the first request's format was refused. */
	failedAfterRefusal(error: unknown, refused: string, fallback: string): unknown;
	/** Errors for input it cannot send, and for answers it cannot read or must refuse. */
	unsupported(message: string, description?: string): Error;
	unreadable(response: IDataObject, answerName: string): Error;
	invalidToolArguments(problem: InvalidToolCall['invalidToolCall']): Error;
}

const signalOf = (config?: CallConfig) => config?.abortSignal ?? config?.signal;

/** The request format of a model: Gemini's generate-content, or chat completions. */
export const formatOf = (model: string): WireFormat =>
	isGeminiModel(model) ? generateContent : chatCompletions;

/**
 * The platform's completions endpoint as n8n's chat model, in the format of the model (chat
 * completions, or Gemini's generate-content). Each call is one request, never re-sent on its own
 * (an AI call may be charged), but for the one request that replaces a request whose response
 * format the platform refused; streaming is the same single call, yielded whole, since the
 * platform streams over sockets and not in the HTTP answer. The caller's abort signal goes with
 * the request, to abort it in flight.
 */
export class FlipletChatModel implements ChatModel<CallConfig> {
	readonly provider = 'fliplet';
	private readonly format: WireFormat;

	constructor(
		readonly modelId: string,
		private readonly settings: ModelSettings,
		private readonly ports: ModelPorts,
		private readonly tools: Tool[] = [],
	) {
		this.format = formatOf(modelId);
	}

	withTools(tools: Tool[]): ChatModel<CallConfig> {
		return new FlipletChatModel(this.modelId, this.settings, this.ports, [...this.tools, ...tools]);
	}

	async generate(messages: Message[], config?: CallConfig): Promise<GenerateResult> {
		return await this.complete(messages, false, config);
	}

	async *stream(messages: Message[], config?: CallConfig): AsyncIterable<StreamChunk> {
		yield* asStreamChunks(await this.complete(messages, true, config));
	}

	/** The requests for these messages, with the node's settings and the bound tools. */
	requests(messages: Message[], streaming: boolean, config?: CallConfig): Requests {
		return this.format.requests({
			model: this.modelId,
			messages,
			tools: this.tools,
			settings: this.settings,
			stop: this.stopSequences(config),
			streaming,
			toJsonSchema: this.ports.toJsonSchema,
		});
	}

	/** The node's stop sequences and the caller's, once each; undefined when there are none. */
	private stopSequences(config?: CallConfig): string[] | undefined {
		const all = [
			...(this.settings.stop ?? []),
			...(config?.stopSequences ?? []),
			...(config?.stop ?? []),
		];
		return all.length ? [...new Set(all)] : undefined;
	}

	private async complete(
		messages: Message[],
		streaming: boolean,
		config?: CallConfig,
	): Promise<GenerateResult> {
		let requests: Requests;
		try {
			requests = this.requests(messages, streaming, config);
		} catch (error) {
			throw this.ports.unsupported(
				(error as Error).message,
				(error as UnsupportedInput).description,
			);
		}
		const { attempt, response } = await this.send(requests, signalOf(config));
		const result = attempt.read(response);
		if (result && 'invalidToolCall' in result) {
			throw this.ports.invalidToolArguments(result.invalidToolCall);
		}
		if (!result) throw this.ports.unreadable(response, this.format.answerName);
		if (attempt.structuredOutput) config?.onStructuredOutput?.(attempt.structuredOutput);
		return result;
	}

	/**
	 * Sends the first request; only when the platform refused its response format (nothing was
	 * generated or billed) sends the fallback, once. Any other failure ends the call.
	 */
	private async send(
		{ first, fallback }: Requests,
		signal: AbortSignal | undefined,
	): Promise<{ attempt: Attempt; response: IDataObject }> {
		const sent = await this.ports.send(first.body, signal).then(
			(response) => ({ response }),
			(error: unknown) => ({ error }),
		);
		if ('response' in sent) return { attempt: first, response: sent.response };
		const refused = first.refusable;
		if (!fallback || !refused || !this.ports.refusedFormat(sent.error, refused)) throw sent.error;
		const how = fallback.structuredOutput ?? 'no response format';
		try {
			const response = await this.ports.send(fallback.body, signal);
			const note = `${how}, after the platform refused the ${refused} format for ${this.modelId}`;
			return { attempt: { ...fallback, structuredOutput: note }, response };
		} catch (second) {
			throw this.ports.failedAfterRefusal(second, refused, how);
		}
	}
}
