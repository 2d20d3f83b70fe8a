'use strict';

const { badRequest } = require('../http');

/** The values of `aiProvider`; without one the platform's JS API means `openai`. */
const AI_PROVIDERS = ['openai', 'gemini'];

/**
 * The platform's routing of a completions body by its `aiProvider` (the one place the sandbox
 * decides it, for Generate Text and the Chat Model alike). The vendor's docs: "For Gemini: You
 * must provide 'contents' and set 'aiProvider' to 'gemini'" (`Fliplet/fliplet-widget-ai-feature:
 * js/system-prompt.js`; `Fliplet/fliplet-cli: docs/API/core/ai.md`, "Using Gemini Models"). A body
 * without it goes to OpenAI, which refuses `contents` as OpenAI would: "Missing required
 * parameter: 'messages'." (a provider failure is a 400, SPEC). `aiProvider: 'gemini'` with
 * `messages` or `input` is refused the same way by Gemini.
 * @param {Record<string, unknown>} body
 * @param {'chat-completions' | 'responses' | 'generate-content'} format
 */
function requireProviderOf(body, format) {
	const provider = body.aiProvider ?? 'openai';
	if (!AI_PROVIDERS.includes(String(provider))) {
		throw badRequest(
			`Unknown "aiProvider" ${JSON.stringify(provider)}: use "gemini" with "contents", or leave it out (OpenAI).`,
		);
	}
	if (provider === 'openai' && format === 'generate-content')
		throw badRequest("Missing required parameter: 'messages'.", { type: 'ai.provider' });
	if (provider === 'gemini' && format !== 'generate-content')
		throw badRequest("Missing required parameter: 'contents'.", { type: 'ai.provider' });
}

module.exports = { AI_PROVIDERS, requireProviderOf };
