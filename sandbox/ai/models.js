'use strict';

/**
 * The models the sandbox's fake providers are "configured" with, by what they can do: the
 * current ones, and every one the platform's own code and docs use (`Fliplet/fliplet-cli:
 * docs/API/core/ai.md`: gpt-3.5-turbo, gpt-4, gpt-4o, gpt-4-0125-preview, gemini-1.5-flash,
 * gemini-2.5-flash, gpt-image-1.5; `Fliplet/fliplet-widget-code-generator: js/interface.js`:
 * o3-mini; `Fliplet/fliplet-widget-ai-feature: js/interface.js`: gpt-4.1, gpt-4o-mini,
 * gpt-4o-2024-08-06; its `js/system-prompt.js`: gpt-5).
 */
const OPENAI_TEXT = [
	'gpt-4o',
	'gpt-4o-mini',
	'gpt-4o-2024-08-06',
	'gpt-4.1',
	'gpt-4.1-mini',
	'gpt-4',
	'gpt-4-0125-preview',
	'gpt-3.5-turbo',
	'gpt-5',
	'gpt-5-mini',
	'o3-mini',
	'o4-mini',
];
/** Gemini's image models: no system instruction, function calling or JSON output. */
const GEMINI_IMAGE = ['gemini-2.5-flash-image'];
const GEMINI_TEXT = ['gemini-1.5-flash', 'gemini-2.5-flash', 'gemini-2.5-pro', ...GEMINI_IMAGE];
/** Gemini's thinking models: their function calls carry a thought signature. */
const GEMINI_THINKING = ['gemini-2.5-flash', 'gemini-2.5-pro'];

const MODELS = {
	'chat-completions': OPENAI_TEXT,
	responses: OPENAI_TEXT,
	'generate-content': GEMINI_TEXT,
	image: ['gpt-image-1.5', 'gpt-image-1', 'gpt-image-1-mini'],
	embeddings: ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'],
	transcription: ['gpt-4o-mini-transcribe', 'gpt-4o-transcribe', 'whisper-1'],
};

/** Legacy image model names the platform replaces by its current default image model. */
const LEGACY_IMAGE_MODELS = ['dall-e-2', 'dall-e-3'];
/** The docs' default image model ("model … default gpt-image-1.5", `docs/API/core/ai.md`). */
const DEFAULT_IMAGE_MODEL = 'gpt-image-1.5';
/** The family of the default image model (names starting with this). */
const DEFAULT_IMAGE_FAMILY = 'gpt-image-';

/** Embedding models that accept `dimensions`. */
const DIMENSION_MODELS = ['text-embedding-3-small', 'text-embedding-3-large'];

module.exports = {
	MODELS,
	GEMINI_IMAGE,
	GEMINI_THINKING,
	LEGACY_IMAGE_MODELS,
	DEFAULT_IMAGE_MODEL,
	DEFAULT_IMAGE_FAMILY,
	DIMENSION_MODELS,
};
