import type { GenerateResult, Message, Tool } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import type { StructuredOutputSettings } from './structuredOutput';

export interface ModelSettings {
	temperature?: number;
	maxTokens?: number;
	reasoningEffort?: string;
	topP?: number;
	topK?: number;
	presencePenalty?: number;
	frequencyPenalty?: number;
	seed?: number;
	stop?: string[];
	structuredOutput: StructuredOutputSettings;
}

/** A model's tool call whose arguments are not a JSON object: the caller refuses the answer. */
export interface InvalidToolCall {
	invalidToolCall: { toolName: string; args: string };
}

export type JsonSchemaOf = (tool: Extract<Tool, { type: 'function' }>) => unknown;

/** Everything one call's request body is made of. */
export interface CallInput {
	model: string;
	messages: Message[];
	tools: Tool[];
	settings: ModelSettings;
	/** The node's stop sequences and the caller's, once each. */
	stop: string[] | undefined;
	/** A streamed call (the chat-completions format then asks for one tool call per answer). */
	streaming: boolean;
	toJsonSchema: JsonSchemaOf;
}

/**
 * One request format of the platform's completions endpoint: how a call becomes a body, and how
 * the answer becomes the SDK's result. `body` throws UnsupportedInput for what the format cannot
 * carry; `read` gives undefined for an answer that does not have the format's shape.
 */
export interface WireFormat {
	/** What the errors call the answer when it is not the format's: "chat-completions message". */
	answerName: string;
	body(input: CallInput): IDataObject;
	read(response: IDataObject): GenerateResult | InvalidToolCall | undefined;
}
