import type { ChatModel, GenerateResult, Message, StreamChunk, Tool } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { asStreamChunks, fromWireAnswer, toWireMessages, toWireTools } from './wire';

export interface ModelSettings {
	temperature?: number;
	maxTokens?: number;
	reasoningEffort?: string;
	json?: boolean;
}

export interface ModelPorts {
	/** Sends one completions request (through the package's transport) and returns its JSON. */
	send(body: IDataObject): Promise<IDataObject>;
	/** A function tool's parameters as JSON schema (n8n's tools may carry Zod schemas). */
	toJsonSchema(tool: Extract<Tool, { type: 'function' }>): unknown;
	/** Errors for input it cannot send and for answers it cannot read. */
	unsupported(message: string): Error;
	unreadable(response: IDataObject): Error;
}

/**
 * The platform's chat completions as n8n's chat model. Each call is one request, never re-sent on
 * its own (an AI call may be charged); streaming is the same single call, yielded whole, since the
 * platform streams over sockets and not in the HTTP answer.
 */
export class FlipletChatModel implements ChatModel {
	readonly provider = 'fliplet';

	constructor(
		readonly modelId: string,
		private readonly settings: ModelSettings,
		private readonly ports: ModelPorts,
		private readonly tools: Tool[] = [],
	) {}

	withTools(tools: Tool[]): ChatModel {
		return new FlipletChatModel(this.modelId, this.settings, this.ports, [...this.tools, ...tools]);
	}

	async generate(messages: Message[]): Promise<GenerateResult> {
		return await this.complete(messages, false);
	}

	async *stream(messages: Message[]): AsyncIterable<StreamChunk> {
		// n8n's stream adapter gives every tool-call chunk the same index: one call per answer.
		yield* asStreamChunks(await this.complete(messages, true));
	}

	/** The request body for these messages, with the node's settings and the bound tools. */
	body(messages: Message[], oneToolCallAtATime: boolean): IDataObject {
		const { temperature, maxTokens, reasoningEffort, json } = this.settings;
		const body: IDataObject = {
			model: this.modelId,
			messages: toWireMessages(messages) as unknown as IDataObject[],
		};
		if (this.tools.length) {
			body.tools = toWireTools(this.tools, this.ports.toJsonSchema);
			if (oneToolCallAtATime) body.parallel_tool_calls = false;
		}
		if (temperature !== undefined) body.temperature = temperature;
		if (maxTokens !== undefined) body.max_completion_tokens = maxTokens;
		if (reasoningEffort) body.reasoning_effort = reasoningEffort;
		if (json) body.response_format = { type: 'json_object' };
		return body;
	}

	private async complete(messages: Message[], streaming: boolean): Promise<GenerateResult> {
		let body: IDataObject;
		try {
			body = this.body(messages, streaming);
		} catch (error) {
			throw this.ports.unsupported((error as Error).message);
		}
		const response = await this.ports.send(body);
		const result = fromWireAnswer(response);
		if (!result) throw this.ports.unreadable(response);
		return result;
	}
}
