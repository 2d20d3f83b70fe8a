import type {
	ChatModel,
	ChatModelConfig,
	GenerateResult,
	Message,
	StreamChunk,
	Tool,
} from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { responseFormatFor, type StructuredOutputSettings } from './structuredOutput';
import {
	asStreamChunks,
	fromWireAnswer,
	toWireMessages,
	toWireTools,
	type InvalidToolCall,
} from './wire';

export interface ModelSettings {
	temperature?: number;
	maxTokens?: number;
	reasoningEffort?: string;
	topP?: number;
	presencePenalty?: number;
	frequencyPenalty?: number;
	seed?: number;
	stop?: string[];
	structuredOutput: StructuredOutputSettings;
}

/**
 * What the caller adds to one call. The SDK's adapter hands LangChain's call options over as they
 * are: its `signal` (the SDK's type calls it `abortSignal`) and its `stop` (`stopSequences`).
 */
export interface CallConfig extends ChatModelConfig {
	signal?: AbortSignal;
	stop?: string[];
}

export interface ModelPorts {
	/**
	 * Sends one completions request (through the package's transport) and returns its JSON. The
	 * signal aborts it in flight; once it has fired, nothing is sent.
	 */
	send(body: IDataObject, abortSignal: AbortSignal | undefined): Promise<IDataObject>;
	/** A function tool's parameters as JSON schema (n8n's tools may carry Zod schemas). */
	toJsonSchema(tool: Extract<Tool, { type: 'function' }>): unknown;
	/** Errors for input it cannot send, and for answers it cannot read or must refuse. */
	unsupported(message: string): Error;
	unreadable(response: IDataObject): Error;
	invalidToolArguments(problem: InvalidToolCall['invalidToolCall']): Error;
}

const signalOf = (config?: CallConfig) => config?.abortSignal ?? config?.signal;

/**
 * The platform's chat completions as n8n's chat model. Each call is one request, never re-sent on
 * its own (an AI call may be charged); streaming is the same single call, yielded whole, since the
 * platform streams over sockets and not in the HTTP answer. The caller's abort signal goes with
 * the request, to abort it in flight.
 */
export class FlipletChatModel implements ChatModel<CallConfig> {
	readonly provider = 'fliplet';

	constructor(
		readonly modelId: string,
		private readonly settings: ModelSettings,
		private readonly ports: ModelPorts,
		private readonly tools: Tool[] = [],
	) {}

	withTools(tools: Tool[]): ChatModel<CallConfig> {
		return new FlipletChatModel(this.modelId, this.settings, this.ports, [...this.tools, ...tools]);
	}

	async generate(messages: Message[], config?: CallConfig): Promise<GenerateResult> {
		return await this.complete(messages, false, config);
	}

	async *stream(messages: Message[], config?: CallConfig): AsyncIterable<StreamChunk> {
		// n8n's stream adapter gives every tool-call chunk the same index: one call per answer.
		yield* asStreamChunks(await this.complete(messages, true, config));
	}

	/** The request body for these messages, with the node's settings and the bound tools. */
	body(messages: Message[], oneToolCallAtATime: boolean, config?: CallConfig): IDataObject {
		const { temperature, maxTokens, reasoningEffort, topP, presencePenalty, frequencyPenalty } =
			this.settings;
		const body: IDataObject = {
			model: this.modelId,
			messages: toWireMessages(messages) as unknown as IDataObject[],
		};
		if (this.tools.length) {
			body.tools = toWireTools(this.tools, this.ports.toJsonSchema);
			if (oneToolCallAtATime) body.parallel_tool_calls = false;
		}
		const optional: IDataObject = {
			temperature,
			max_completion_tokens: maxTokens,
			reasoning_effort: reasoningEffort || undefined,
			top_p: topP,
			presence_penalty: presencePenalty,
			frequency_penalty: frequencyPenalty,
			seed: this.settings.seed,
			stop: this.stopSequences(config),
			response_format: responseFormatFor(this.settings.structuredOutput, messages),
		};
		for (const [key, value] of Object.entries(optional)) {
			if (value !== undefined) body[key] = value;
		}
		return body;
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
		let body: IDataObject;
		try {
			body = this.body(messages, streaming, config);
		} catch (error) {
			throw this.ports.unsupported((error as Error).message);
		}
		const response = await this.ports.send(body, signalOf(config));
		const result = fromWireAnswer(response);
		if (result && 'invalidToolCall' in result) {
			throw this.ports.invalidToolArguments(result.invalidToolCall);
		}
		if (!result) throw this.ports.unreadable(response);
		return result;
	}
}
