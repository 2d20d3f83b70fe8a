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

/** One request of a call, and how its answer is read. */
export interface Attempt {
	body: IDataObject;
	/** The answer as the SDK's result; undefined when it does not have the format's shape. */
	read(response: IDataObject): GenerateResult | InvalidToolCall | undefined;
	/** How the request asks for a schema's answer, as the run data says it; none without one. */
	structuredOutput?: string;
	/** The response format the platform may refuse for this model: then the fallback goes, once. */
	refusable?: string;
}

/**
 * The request of one call, and the one that replaces it, once, when the platform refuses the
 * first one's response format (a 400 before any generation: nothing was made or billed).
 */
export interface Requests {
	first: Attempt;
	fallback?: Attempt;
}

/**
 * One request format of the platform's completions endpoint: how a call becomes its request (and
 * its fallback), each with how its answer becomes the SDK's result. `requests` throws
 * UnsupportedInput for what the format cannot carry.
 */
export interface WireFormat {
	/** What the errors call the answer when it is not the format's: "chat-completions message". */
	answerName: string;
	requests(input: CallInput): Requests;
}
