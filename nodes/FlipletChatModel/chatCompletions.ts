import type { IDataObject } from 'n8n-workflow';

import { compact } from '../Fliplet/helpers/aiText';
import type { WireFormat } from './format';
import { responseFormatFor } from './structuredOutput';
import { fromWireAnswer, toWireMessages, toWireTools } from './wire';

/** The chat-completions format, in which the platform runs OpenAI's models. */
export const chatCompletions: WireFormat = {
	answerName: 'chat-completions message',

	body({ model, messages, tools, settings, stop, streaming, toJsonSchema }) {
		const declared: IDataObject = tools.length
			? {
					tools: toWireTools(tools, toJsonSchema),
					// n8n's stream adapter gives every tool-call chunk the same index.
					parallel_tool_calls: streaming ? false : undefined,
				}
			: {};
		return compact({
			model,
			messages: toWireMessages(messages) as unknown as IDataObject[],
			...declared,
			temperature: settings.temperature,
			max_completion_tokens: settings.maxTokens,
			reasoning_effort: settings.reasoningEffort || undefined,
			top_p: settings.topP,
			presence_penalty: settings.presencePenalty,
			frequency_penalty: settings.frequencyPenalty,
			seed: settings.seed,
			stop,
			response_format: responseFormatFor(settings.structuredOutput, messages),
		});
	},

	read: fromWireAnswer,
};
