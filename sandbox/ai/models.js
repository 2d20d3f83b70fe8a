'use strict';

/**
 * The models the sandbox's fake providers are "configured" with, by what they can do. The
 * platform passes each request to the provider, and its docs name examples and send the reader to
 * the provider's list for the rest ("See the model endpoint compatibility table"; "for the latest
 * model IDs, please refer to the official Gemini API documentation", `Fliplet/fliplet-cli:
 * docs/API/core/ai.md`). So: every model a vendor file names that its provider still serves
 * (`docs/API/core/ai.md`: gpt-3.5-turbo, gpt-4, gpt-4o, gpt-4-0125-preview, gemini-2.5-flash,
 * gpt-image-1.5; `Fliplet/fliplet-widget-code-generator: js/interface.js`: o3-mini;
 * `Fliplet/fliplet-widget-ai-feature: js/interface.js`: gpt-4.1, gpt-4o-mini, gpt-4o-2024-08-06,
 * and in its history o4-mini (f08f4c7) and a preview of gemini-2.5-pro (f8bfcec); its
 * `js/system-prompt.js`: gpt-5), and a few current siblings of theirs the tests use (gpt-4.1-mini,
 * gpt-5-mini, gemini-2.5-pro, gemini-2.5-flash-lite, and gpt-4o-2024-05-13: the first gpt-4o
 * snapshot, which the widget's "gpt-4o-2024-08-06 (for structured outputs)" sets apart).
 */
const OPENAI_TEXT = [
	'gpt-4o',
	'gpt-4o-mini',
	'gpt-4o-2024-08-06',
	'gpt-4o-2024-05-13',
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
/**
 * The OpenAI models that refuse a response format, as OpenAI refuses it (a 400 before any
 * generation): json_schema needs gpt-4o-mini, gpt-4o-2024-08-06 or a later model ("Introducing
 * Structured Outputs in the API"), and gpt-4 takes no JSON mode either. The vendor pairs
 * json_schema with gpt-4.1 (`fliplet-widget-ai-feature: js/interface.js`) and JSON mode with
 * gpt-4-0125-preview and gpt-3.5-turbo-1106 (`Fliplet/qa-automation-solutions: POM.json`).
 */
const REFUSED_FORMATS = {
	'gpt-4': ['json_schema', 'json_object'],
	'gpt-4-0125-preview': ['json_schema'],
	'gpt-3.5-turbo': ['json_schema'],
	'gpt-4o-2024-05-13': ['json_schema'],
};
/** Gemini's image models: no system instruction, function calling or JSON output. */
const GEMINI_IMAGE = ['gemini-2.5-flash-image'];
const GEMINI_TEXT = [
	'gemini-2.5-flash',
	'gemini-2.5-pro',
	'gemini-2.5-flash-lite',
	...GEMINI_IMAGE,
];
/**
 * Gemini's thinking models: their function calls carry a thought signature. gemini-2.5-flash-lite
 * thinks only when a request asks it to (`thinkingConfig`), so its calls carry none here.
 */
const GEMINI_THINKING = ['gemini-2.5-flash', 'gemini-2.5-pro'];
/**
 * Models a vendor file names that their provider has shut down: the provider's answer, which the
 * platform passes on as its 400 (SPEC: any provider failure is a 400). Google shut Gemini 1.5
 * down in September 2025; `docs/API/core/ai.md` still gives gemini-1.5-flash as an example.
 */
const RETIRED = {
	'gemini-1.5-flash':
		'models/gemini-1.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.',
};

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
	REFUSED_FORMATS,
	RETIRED,
	GEMINI_IMAGE,
	GEMINI_THINKING,
	LEGACY_IMAGE_MODELS,
	DEFAULT_IMAGE_MODEL,
	DEFAULT_IMAGE_FAMILY,
	DIMENSION_MODELS,
};
