import type { INodeListSearchResult } from 'n8n-workflow';

/**
 * The platform's chat models in the chat-completions format (its Gemini models take the
 * generate-content format, which n8n's agent tools do not use here). An id typed in is sent as is.
 */
export const CHAT_MODELS = [
	{ name: 'GPT-4o Mini', value: 'gpt-4o-mini' },
	{ name: 'GPT-4o', value: 'gpt-4o' },
	{ name: 'GPT-4.1', value: 'gpt-4.1' },
	{ name: 'GPT-4.1 Mini', value: 'gpt-4.1-mini' },
	{ name: 'GPT-5', value: 'gpt-5' },
	{ name: 'GPT-5 Mini', value: 'gpt-5-mini' },
	{ name: 'O4 Mini (Reasoning)', value: 'o4-mini' },
];

export async function searchChatModels(filter?: string): Promise<INodeListSearchResult> {
	const wanted = (filter ?? '').toLowerCase();
	return {
		results: CHAT_MODELS.filter(
			(model) =>
				!wanted || model.name.toLowerCase().includes(wanted) || model.value.includes(wanted),
		).map((model) => ({ name: `${model.name} (${model.value})`, value: model.value })),
	};
}
