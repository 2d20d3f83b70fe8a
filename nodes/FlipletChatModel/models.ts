import type { INodeListSearchResult } from 'n8n-workflow';

/**
 * The chat models the platform's own code and docs name (the platform has no endpoint that lists
 * its models). In the chat-completions format: `gpt-3.5-turbo`, `gpt-4`, `gpt-4o` and
 * `gpt-4o-mini` (`Fliplet/fliplet-cli: docs/API/core/ai.md`), `gpt-4.1` and `gpt-5`
 * (`Fliplet/fliplet-widget-ai-feature: js/interface.js`, `js/system-prompt.js`), `o3-mini`
 * (`Fliplet/fliplet-widget-code-generator: js/interface.js`). In Gemini's generate-content format:
 * `gemini-2.5-flash` (`docs/API/core/ai.md`, "Using Gemini Models"; `js/system-prompt.js`). The
 * same docs also name `gemini-1.5-flash`, as an example beside a pointer to Google's list of
 * current models; Google shut Gemini 1.5 down in September 2025, and the platform passes Gemini
 * requests straight to Google, so it is not listed. Any other id is sent as typed.
 */
export const CHAT_MODELS = [
	{ name: 'GPT-4o Mini', value: 'gpt-4o-mini' },
	{ name: 'GPT-4o', value: 'gpt-4o' },
	{ name: 'GPT-4.1', value: 'gpt-4.1' },
	{ name: 'GPT-5 (Reasoning)', value: 'gpt-5' },
	{ name: 'O3 Mini (Reasoning)', value: 'o3-mini' },
	{ name: 'GPT-4', value: 'gpt-4' },
	{ name: 'GPT-3.5 Turbo', value: 'gpt-3.5-turbo' },
	{ name: 'Gemini 2.5 Flash', value: 'gemini-2.5-flash' },
];

/**
 * Reasoning models (o-series, GPT-5): they take Reasoning Effort, and refuse sampling settings
 * other than their default (temperature, top P, penalties) and stop sequences. A regular
 * expression on the model id, as n8n's display conditions take it.
 */
export const REASONING_MODEL = '^(o[1-9]|gpt-5)';

/** Google's Gemini models, which the platform runs in Gemini's generate-content format. */
export const GEMINI_PREFIX = 'gemini-';

export const isGeminiModel = (model: string) => model.trim().startsWith(GEMINI_PREFIX);

/** What a Gemini model takes besides its contents and sampling settings. */
export interface GeminiAbilities {
	systemInstruction: boolean;
	tools: boolean;
	jsonOutput: boolean;
}

/**
 * Gemini's image-generation models (`gemini-2.5-flash-image`…) take no function calling, no
 * system instruction and no JSON output; the text models take all three. SPEC, completions rule
 * 3: "generationConfig, systemInstruction and tools are sent only when the model supports them".
 */
export function geminiAbilities(model: string): GeminiAbilities {
	const text = !/-image/i.test(model);
	return { systemInstruction: text, tools: text, jsonOutput: text };
}

export async function searchChatModels(filter?: string): Promise<INodeListSearchResult> {
	const wanted = (filter ?? '').toLowerCase();
	return {
		results: CHAT_MODELS.filter(
			(model) =>
				!wanted || model.name.toLowerCase().includes(wanted) || model.value.includes(wanted),
		).map((model) => ({ name: `${model.name} (${model.value})`, value: model.value })),
	};
}
