import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeError, NodeOperationError } from 'n8n-workflow';

import { asSubNodeError } from '../Fliplet/helpers/subNodeError';
import { CHAT_MODELS, isGeminiModel } from './models';
import type { InvalidToolCall } from './format';

const MODEL_LIST = CHAT_MODELS.map((model) => model.value).join(', ');
/** How much of a tool call's arguments an error quotes. */
const QUOTED_ARGUMENTS = 200;

/** The body of the platform's answer, which the transport keeps in the error's response. */
function refusedBody(error: NodeApiError): IDataObject | undefined {
	const { errorResponse } = error as { errorResponse?: { body?: unknown } };
	const body = errorResponse?.body;
	return body && typeof body === 'object' ? (body as IDataObject) : undefined;
}

/** The texts a refusal may say why in: the platform's message, and a provider's inside it. */
function refusalTexts(error: NodeApiError): string[] {
	const body = refusedBody(error);
	const payload = body?.payload as IDataObject | undefined;
	const nested = [body?.error, payload, payload?.error] as Array<IDataObject | undefined>;
	return [body?.message, ...nested.map((part) => part?.message), error.message].filter(
		(text): text is string => typeof text === 'string',
	);
}

/**
 * Whether the platform refused a response format for the model: a 400 whose message says the
 * format is not supported, as OpenAI says it ("Invalid parameter: 'response_format' of type
 * 'json_schema' is not supported with this model."; OpenAI-compatible servers: "invalid value:
 * `json_schema`"). Such a request was refused before any generation. Nothing else counts: a
 * provider's failure is a 400 too (SPEC), and a 400 that names the format for another reason (an
 * invalid schema) is not a refusal of the format.
 */
export function refusedResponseFormat(error: unknown, format: string): boolean {
	if (!(error instanceof NodeApiError) || error.httpCode !== '400') return false;
	const refusal = new RegExp(
		`${format}\\W{0,3}\\s(?:[\\w\\s]{0,20}\\s)?(?:is|are) not supported|invalid value:?\\s*\\W?${format}\\b`,
		'i',
	);
	return refusalTexts(error).some((text) => refusal.test(text));
}

/** The fallback's failure, after the platform refused the first request's format. */
export function failedAfterRefusal(error: unknown, refused: string, fallback: string): unknown {
	if (error instanceof NodeError) {
		const before = `The platform refused the ${refused} response format for this model, so the call was sent once more with ${fallback}, which failed too.`;
		error.description = `${before} ${error.description ?? ''}`.trim();
	}
	return error;
}

/** A completions failure with what to change for the chat model's own causes. */
export function chatModelError(error: unknown, model: string): unknown {
	if (!(error instanceof NodeApiError)) return asSubNodeError(error);
	const body = refusedBody(error);
	const text = `${String(body?.message ?? '')} ${error.message}`;
	const format = ['json_schema', 'json_object'].find((name) => refusedResponseFormat(error, name));
	if (format) {
		error.description = `The model "${model}" takes no ${format} response format. ${
			format === 'json_object'
				? 'Set Response Format to JSON Schema or Text, or pick a model that takes JSON mode, such as gpt-4o-mini.'
				: 'Pick a model that takes it, such as gpt-4o-mini or gpt-4.1, or set Response Format to Text.'
		}`;
	} else if (error.httpCode === '400' && (body?.type === 'ai.model' || /\bmodel\b/i.test(text))) {
		error.description = isGeminiModel(model)
			? `The platform does not offer "${model}" in Gemini's generate-content format (Google retires older models: Gemini 1.5 was shut down in 2025), or the model refused a setting or a tool's schema. Pick a model from the list (${MODEL_LIST}).`
			: `The platform does not offer "${model}" for chat completions, or the model refused a setting. Pick a model from the list (${MODEL_LIST}); reasoning models (gpt-5, o-series) take no Temperature, Top P, penalties or Stop Sequences, and Reasoning Effort only applies to them.`;
	} else if (error.httpCode === '402') {
		error.description =
			"The app's AI credits are used up. Add credits or raise the plan in Fliplet Studio, then run again. An agent makes one model call per step: fewer tools or a shorter task use fewer credits.";
	} else if (error.httpCode === '429') {
		error.description =
			"The app's AI limit (10 requests a minute, shared by every AI call of the app) was still reached after waiting as the platform asked. An agent makes one call per step: lower the agent's Max Iterations, run fewer items at once, or add a Wait node between runs.";
	}
	return asSubNodeError(error);
}

export function unreadableAnswer(
	node: INode,
	response: IDataObject,
	itemIndex: number,
	answerName: string,
) {
	const feedback = response.promptFeedback as IDataObject | undefined;
	if (typeof feedback?.blockReason === 'string') {
		return new NodeOperationError(node, `Gemini blocked the prompt (${feedback.blockReason})`, {
			itemIndex,
			functionality: 'configuration-node',
			description:
				"Gemini's safety filters refused the prompt, so it gave no answer. Reword the prompt or the data it carries, then run again.",
		});
	}
	return new NodeOperationError(node, `Unexpected answer: no ${answerName}`, {
		itemIndex,
		functionality: 'configuration-node',
		description: `The answer has the fields ${Object.keys(response).join(', ') || '(none)'}. The Fliplet Chat Model reads OpenAI's models in the chat-completions format and Gemini's in the generate-content format: pick one of the models from the list (${MODEL_LIST}).`,
	});
}

export function unsupportedInput(
	node: INode,
	message: string,
	itemIndex: number,
	description = 'Send text (and images) in the messages, and connect n8n tools (nodes used as tools, Code or HTTP Request tools) to the agent.',
) {
	return new NodeOperationError(node, message, {
		itemIndex,
		functionality: 'configuration-node',
		description,
	});
}

export function invalidToolArguments(
	node: INode,
	problem: InvalidToolCall['invalidToolCall'],
	itemIndex: number,
) {
	const quoted =
		problem.args.length > QUOTED_ARGUMENTS
			? `${problem.args.slice(0, QUOTED_ARGUMENTS)}…`
			: problem.args;
	const message = `The model called the tool "${problem.toolName}" with arguments that are not a JSON object`;
	return new NodeOperationError(node, message, {
		itemIndex,
		functionality: 'configuration-node',
		description: `The tool was not run: it takes a JSON object, and the model sent ${JSON.stringify(quoted)}. Run the agent again (each attempt is a new call); if it happens again, give the tool's parameters clearer names and descriptions, or pick a stronger model (${MODEL_LIST}).`,
	});
}

export function cancelledCall(node: INode, itemIndex: number) {
	return new NodeOperationError(node, 'The model call was cancelled', {
		itemIndex,
		functionality: 'configuration-node',
		description:
			'The execution was stopped or the chat was closed while the model was answering, so the request was aborted and no further call was made. A call the platform had already handed to the model provider may still be charged.',
	});
}
