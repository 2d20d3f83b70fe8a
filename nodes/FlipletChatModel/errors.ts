import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CHAT_MODELS } from './models';

const MODEL_LIST = CHAT_MODELS.map((model) => model.value).join(', ');

function refusedBody(error: NodeApiError): IDataObject | undefined {
	const cause = (error as { cause?: { body?: unknown } }).cause;
	return cause?.body && typeof cause.body === 'object' ? (cause.body as IDataObject) : undefined;
}

/** A completions failure with what to change for the chat model's own causes. */
export function chatModelError(error: unknown, model: string): unknown {
	if (!(error instanceof NodeApiError)) return error;
	const body = refusedBody(error);
	const text = `${String(body?.message ?? '')} ${error.message}`;
	if (error.httpCode === '400' && (body?.type === 'ai.model' || /\bmodel\b/i.test(text))) {
		error.description = `The platform does not offer "${model}" for chat completions, or the model refused a setting. Pick a model from the list (${MODEL_LIST}), and for reasoning models (gpt-5, o4-mini) leave Temperature unset; Reasoning Effort only applies to them.`;
	} else if (error.httpCode === '402') {
		error.description =
			"The app's AI credits are used up. Add credits or raise the plan in Fliplet Studio, then run again. An agent makes one model call per step: fewer tools or a shorter task use fewer credits.";
	} else if (error.httpCode === '429') {
		error.description =
			"The app's AI limit (10 requests a minute, shared by every AI call of the app) was still reached after waiting as the platform asked. An agent makes one call per step: lower the agent's Max Iterations, run fewer items at once, or add a Wait node between runs.";
	}
	return error;
}

export function unreadableAnswer(node: INode, response: IDataObject, itemIndex: number) {
	return new NodeOperationError(node, 'Unexpected answer: no chat-completions message', {
		itemIndex,
		description: `The answer has the fields ${Object.keys(response).join(', ') || '(none)'}. The Fliplet Chat Model speaks the chat-completions format: pick one of the OpenAI models (${MODEL_LIST}).`,
	});
}

export function unsupportedInput(node: INode, message: string, itemIndex: number) {
	return new NodeOperationError(node, message, {
		itemIndex,
		description:
			'Send text (and images) in the messages, and connect n8n tools (nodes used as tools, Code or HTTP Request tools) to the agent.',
	});
}
