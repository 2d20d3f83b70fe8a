import type {
	FinishReason,
	GenerateResult,
	Message,
	MessageContent,
	TokenUsage,
} from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';
import { jsonParse, randomString } from 'n8n-workflow';

import { compact, withAiProvider } from '../Fliplet/helpers/aiText';
import { isObject } from '../Fliplet/helpers/isObject';
import type { CallInput, InvalidToolCall, JsonSchemaOf, WireFormat } from './format';
import { hasNoProperties, toGeminiSchema } from './geminiSchema';
import { geminiAbilities } from './models';
import { requestedOutput } from './structuredOutput';
import { argumentsText, declaredTools, fileSource, resultText, UnsupportedInput } from './wire';

/**
 * Gemini's generate-content format, as the platform's JS API sends it to the completions endpoint
 * ("For Gemini: You must provide 'contents' and set 'aiProvider' to 'gemini'",
 * `Fliplet/fliplet-widget-ai-feature: js/system-prompt.js`; `Fliplet/fliplet-cli:
 * docs/API/core/ai.md`, "Using Gemini Models"): `contents` of `user` and `model` turns made of
 * `parts`, `systemInstruction`, `generationConfig`, `tools: [{functionDeclarations}]`. The answer
 * is Gemini's own: `candidates[0].content.parts`, `finishReason`, `usageMetadata`.
 */

type Part = IDataObject;
type Role = 'user' | 'model';
interface Content extends IDataObject {
	role: Role;
	parts: Part[];
}

type FilePart = Extract<MessageContent, { type: 'file' }>;
type ToolCallPart = Extract<MessageContent, { type: 'tool-call' | 'invalid-tool-call' }>;

function inlineData(part: FilePart): Part {
	const source = fileSource(part);
	if ('url' in source) {
		const data = /^data:([^;,]+);base64,(.*)$/s.exec(source.url);
		if (!data) {
			throw new UnsupportedInput(
				`A file is given by its address (${source.url.slice(0, 80)}): Gemini takes files as data. Pass the file itself (binary data) instead.`,
			);
		}
		return { inlineData: { mimeType: data[1], data: data[2] } };
	}
	if (!source.mediaType) {
		throw new UnsupportedInput('A message holds a file without a media type: Gemini needs one.');
	}
	return { inlineData: { mimeType: source.mediaType, data: source.data } };
}

function userParts(content: MessageContent[]): Part[] {
	return content.flatMap((part): Part[] => {
		if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
		return part.type === 'file' ? [inlineData(part)] : [];
	});
}

function systemTexts(content: MessageContent[]): string[] {
	if (content.some((part) => part.type === 'file')) {
		throw new UnsupportedInput(
			"A system message holds a file: Gemini's system instruction takes text only. Send the file in a user message.",
		);
	}
	return userParts(content).map((part) => part.text as string);
}

/**
 * n8n's agent keeps only a tool call's id, name and arguments between its steps (from n8n 2.x it
 * runs each tool as a node and starts again), and Gemini wants each call back with the thought
 * signature it came with: the id carries it, after this mark.
 */
const SIGNED = '~thought~';

function callId(given: unknown, signature: unknown): string {
	const id = typeof given === 'string' && given ? given : `call_${randomString(24)}`;
	return typeof signature === 'string' && signature ? `${id}${SIGNED}${signature}` : id;
}

/**
 * A tool call of an earlier model turn as Gemini gave it: its arguments without the `id` n8n's
 * agent adds to them, and its thought signature.
 */
function callPart(part: ToolCallPart): Part {
	const id = part.toolCallId ?? '';
	const name = part.type === 'tool-call' ? part.toolName : (part.name ?? '');
	const input = part.type === 'tool-call' ? part.input : (part.args ?? '');
	const parsed = jsonParse<unknown>(input || '{}', { fallbackValue: {} });
	const args = isObject(parsed) ? { ...parsed } : {};
	if (id && args.id === id) delete args.id;
	const signed = id.indexOf(SIGNED);
	return {
		functionCall: { name, args },
		...(signed >= 0 ? { thoughtSignature: id.slice(signed + SIGNED.length) } : {}),
	};
}

/** A model turn: its text, and its tool calls (whose names later tool results are sent with). */
function modelParts(content: MessageContent[], callNames: Map<string, string>): Part[] {
	return content.flatMap((part): Part[] => {
		if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
		if (part.type !== 'tool-call' && part.type !== 'invalid-tool-call') return [];
		const call = callPart(part);
		callNames.set(part.toolCallId ?? '', (call.functionCall as IDataObject).name as string);
		return [call];
	});
}

/** Each tool result as a `functionResponse`, named after the call it answers. */
function responseParts(message: Message, callNames: Map<string, string>): Part[] {
	return message.content.flatMap((part): Part[] => {
		if (part.type !== 'tool-result') return [];
		const name = callNames.get(part.toolCallId) ?? message.name;
		if (!name) {
			throw new UnsupportedInput(
				`A tool result answers the call "${part.toolCallId}", which no earlier model turn made: Gemini needs the name of the tool that answers.`,
			);
		}
		const text = resultText(part.result);
		return [
			{ functionResponse: { name, response: part.isError ? { error: text } : { output: text } } },
		];
	});
}

/**
 * n8n's messages as Gemini's contents: system messages become the system instruction, assistant
 * turns `model` turns, and the results of one step's tool calls one `user` turn of function
 * responses. Reasoning, citations and provider blocks have no place in a request.
 */
function toContents(messages: Message[]): { system: string[]; contents: Content[] } {
	const system: string[] = [];
	const contents: Content[] = [];
	const callNames = new Map<string, string>();
	let answeringTools = false;
	for (const message of messages) {
		const previous = answeringTools ? contents[contents.length - 1] : undefined;
		answeringTools = message.role === 'tool';
		if (message.role === 'system') system.push(...systemTexts(message.content));
		else if (message.role === 'tool' && previous?.role === 'user') {
			previous.parts.push(...responseParts(message, callNames));
		} else {
			const parts =
				message.role === 'tool'
					? responseParts(message, callNames)
					: message.role === 'assistant'
						? modelParts(message.content, callNames)
						: userParts(message.content);
			if (parts.length)
				contents.push({ role: message.role === 'assistant' ? 'model' : 'user', parts });
		}
	}
	return { system, contents };
}

/** Function declarations, with parameters only when the tool has some (Gemini refuses none). */
function functionDeclarations(tools: CallInput['tools'], toJsonSchema: JsonSchemaOf) {
	return declaredTools(tools, toJsonSchema).map(({ name, description, parameters }) => {
		const schema = toGeminiSchema(parameters);
		return compact({
			name,
			description,
			parameters: hasNoProperties(schema) ? undefined : schema,
		});
	});
}

/** The JSON output asked for, in `generationConfig`: a schema Gemini follows, or any JSON. */
function outputConfig({ model, messages, tools, settings }: CallInput): IDataObject {
	const asked = settings.structuredOutput.responseFormat;
	const setting = asked === 'json' || asked === 'jsonSchema';
	if (tools.length && setting) {
		throw new UnsupportedInput(
			`Gemini takes no JSON response format together with tools (function calling): set the Chat Model's Response Format to Text for an agent with tools. An agent's output parser still works: it asks for the answer through a tool.`,
		);
	}
	// Without tools only: Gemini refuses a JSON response format beside function declarations.
	if (tools.length || !geminiAbilities(model).jsonOutput) return {};
	const output = requestedOutput(settings.structuredOutput, messages);
	if (!output) return {};
	return {
		responseMimeType: 'application/json',
		responseSchema: 'schema' in output ? toGeminiSchema(output.schema) : undefined,
	};
}

function body(input: CallInput): IDataObject {
	const { model, messages, tools, settings, stop, toJsonSchema } = input;
	const abilities = geminiAbilities(model);
	if (tools.length && !abilities.tools) {
		throw new UnsupportedInput(
			`The model "${model}" takes no tools (function calling): pick a Gemini text model, such as gemini-2.5-flash, for an agent with tools.`,
		);
	}
	const { system, contents } = toContents(messages);
	const instruction = system.map((text) => ({ text }));
	if (instruction.length && !abilities.systemInstruction) {
		// A model without a system instruction reads it at the start of the first user turn.
		const first = contents.find((content) => content.role === 'user');
		if (first) first.parts.unshift(...instruction);
		else contents.unshift({ role: 'user', parts: instruction });
	}
	const generationConfig = compact({
		temperature: settings.temperature,
		topP: settings.topP,
		topK: settings.topK,
		maxOutputTokens: settings.maxTokens,
		stopSequences: stop,
		...outputConfig(input),
	});
	return withAiProvider(
		'generateContent',
		compact({
			model,
			contents,
			systemInstruction:
				instruction.length && abilities.systemInstruction ? { parts: instruction } : undefined,
			tools: tools.length
				? [{ functionDeclarations: functionDeclarations(tools, toJsonSchema) }]
				: undefined,
			generationConfig: Object.keys(generationConfig).length ? generationConfig : undefined,
		}),
	);
}

const FINISH: Record<string, FinishReason> = {
	STOP: 'stop',
	MAX_TOKENS: 'length',
	SAFETY: 'content-filter',
	RECITATION: 'content-filter',
	BLOCKLIST: 'content-filter',
	PROHIBITED_CONTENT: 'content-filter',
	SPII: 'content-filter',
	IMAGE_SAFETY: 'content-filter',
};

function usageOf(usage: unknown): TokenUsage | undefined {
	if (!isObject(usage)) return undefined;
	const promptTokens = Number(usage.promptTokenCount ?? 0);
	const thoughts = usage.thoughtsTokenCount;
	// Gemini counts thinking apart; chat completions count it in the completion, as billed.
	const completionTokens = Number(usage.candidatesTokenCount ?? 0) + Number(thoughts ?? 0);
	const cached = usage.cachedContentTokenCount;
	return {
		promptTokens,
		completionTokens,
		totalTokens: Number(usage.totalTokenCount ?? promptTokens + completionTokens),
		...(typeof cached === 'number' ? { inputTokenDetails: { cacheRead: cached } } : {}),
		...(typeof thoughts === 'number' ? { outputTokenDetails: { reasoning: thoughts } } : {}),
	};
}

/**
 * A call Gemini could not write as a function call (`MALFORMED_FUNCTION_CALL`): its finish message
 * quotes it as code, e.g. "print(default_api.Staff_Directory(limit='2'))".
 */
function malformedCall(finishMessage: unknown): InvalidToolCall {
	const args = typeof finishMessage === 'string' ? finishMessage : '';
	const names = [...args.matchAll(/([A-Za-z_][\w-]*)\s*\(/g)].map((match) => match[1]);
	return {
		invalidToolCall: { toolName: names.find((name) => name !== 'print') ?? 'unknown', args },
	};
}

/** The parts of Gemini's answer as n8n's content: text, tool calls (each with an id), files. */
function answerOf(parts: unknown[]): GenerateResult['message'] | InvalidToolCall {
	const content: MessageContent[] = [];
	const text = parts
		.filter((part) => isObject(part) && typeof part.text === 'string' && part.thought !== true)
		.map((part) => (part as IDataObject).text as string)
		.join('');
	if (text) content.push({ type: 'text', text });
	for (const part of parts) {
		if (!isObject(part)) continue;
		const call = part.functionCall;
		const file = part.inlineData;
		if (isObject(call)) {
			const toolName = typeof call.name === 'string' ? call.name : '';
			const input = argumentsText(call.args);
			if (input === undefined) {
				const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
				return { invalidToolCall: { toolName, args } };
			}
			// Gemini's calls carry no id: one the agent pairs the tool's result with.
			const toolCallId = callId(call.id, part.thoughtSignature);
			content.push({ type: 'tool-call', toolCallId, toolName, input });
		} else if (isObject(file) && typeof file.data === 'string') {
			content.push({ type: 'file', mediaType: String(file.mimeType ?? ''), data: file.data });
		}
	}
	return { role: 'assistant', content };
}

/**
 * Gemini's answer as the SDK's result, or undefined when it has no candidate (a prompt Gemini
 * blocked has none: the caller reports its `promptFeedback`). A call whose arguments are not a
 * JSON object, or that Gemini could not write, makes the whole answer an InvalidToolCall.
 */
function read(response: IDataObject): GenerateResult | InvalidToolCall | undefined {
	const candidate = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
	if (!isObject(candidate)) return undefined;
	const reason = typeof candidate.finishReason === 'string' ? candidate.finishReason : '';
	if (reason === 'MALFORMED_FUNCTION_CALL') return malformedCall(candidate.finishMessage);
	const content = isObject(candidate.content) ? candidate.content : {};
	const message = answerOf(Array.isArray(content.parts) ? content.parts : []);
	if ('invalidToolCall' in message) return message;
	const called = message.content.some((part) => part.type === 'tool-call');
	return {
		id: typeof response.responseId === 'string' ? response.responseId : undefined,
		finishReason: called ? 'tool-calls' : (FINISH[reason] ?? 'other'),
		usage: usageOf(response.usageMetadata),
		message,
		rawResponse: response,
	};
}

export const generateContent: WireFormat = {
	answerName: 'generate-content candidate',
	requests(input) {
		const request = body(input);
		const config = request.generationConfig as IDataObject | undefined;
		return {
			first: {
				body: request,
				read,
				structuredOutput: config?.responseSchema ? "Gemini's responseSchema" : undefined,
			},
		};
	},
};
