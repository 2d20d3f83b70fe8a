import type { INodeListSearchResult } from 'n8n-workflow';

/**
 * The chat models the platform's own code and docs name for the chat-completions format (the
 * platform has no endpoint that lists its models): `gpt-3.5-turbo`, `gpt-4`, `gpt-4o` and
 * `gpt-4o-mini` (`Fliplet/fliplet-cli: docs/API/core/ai.md`), `gpt-4.1` and `gpt-5`
 * (`Fliplet/fliplet-widget-ai-feature: js/interface.js`, `js/system-prompt.js`), `o3-mini`
 * (`Fliplet/fliplet-widget-code-generator: js/interface.js`). Any other id is sent as typed.
 */
export const CHAT_MODELS = [
	{ name: 'GPT-4o Mini', value: 'gpt-4o-mini' },
	{ name: 'GPT-4o', value: 'gpt-4o' },
	{ name: 'GPT-4.1', value: 'gpt-4.1' },
	{ name: 'GPT-5 (Reasoning)', value: 'gpt-5' },
	{ name: 'O3 Mini (Reasoning)', value: 'o3-mini' },
	{ name: 'GPT-4', value: 'gpt-4' },
	{ name: 'GPT-3.5 Turbo', value: 'gpt-3.5-turbo' },
];

/**
 * Reasoning models (o-series, GPT-5): they take Reasoning Effort, and refuse sampling settings
 * other than their default (temperature, top P, penalties) and stop sequences. A regular
 * expression on the model id, as n8n's display conditions take it.
 */
export const REASONING_MODEL = '^(o[1-9]|gpt-5)';

/** Gemini models take the generate-content format, which this model does not speak. */
export const isGeminiModel = (model: string) => /^gemini-/i.test(model.trim());

export async function searchChatModels(filter?: string): Promise<INodeListSearchResult> {
	const wanted = (filter ?? '').toLowerCase();
	return {
		results: CHAT_MODELS.filter(
			(model) =>
				!wanted || model.name.toLowerCase().includes(wanted) || model.value.includes(wanted),
		).map((model) => ({ name: `${model.name} (${model.value})`, value: model.value })),
	};
}
