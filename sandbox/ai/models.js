'use strict';

/** The models the sandbox's fake providers are "configured" with, by what they can do. */
const OPENAI_TEXT = [
	'gpt-4o',
	'gpt-4o-mini',
	'gpt-4.1',
	'gpt-4.1-mini',
	'gpt-5',
	'gpt-5-mini',
	'o4-mini',
];
const GEMINI_TEXT = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-image'];

const MODELS = {
	'chat-completions': OPENAI_TEXT,
	responses: OPENAI_TEXT,
	'generate-content': GEMINI_TEXT,
	image: ['gpt-image-1', 'gpt-image-1-mini'],
	embeddings: ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'],
	transcription: ['gpt-4o-mini-transcribe', 'gpt-4o-transcribe', 'whisper-1'],
};

/** Legacy image model names the platform replaces by its current default image model. */
const LEGACY_IMAGE_MODELS = ['dall-e-2', 'dall-e-3'];
const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
/** The family of the default image model (names starting with this). */
const DEFAULT_IMAGE_FAMILY = 'gpt-image-';

/** Embedding models that accept `dimensions`. */
const DIMENSION_MODELS = ['text-embedding-3-small', 'text-embedding-3-large'];

module.exports = {
	MODELS,
	LEGACY_IMAGE_MODELS,
	DEFAULT_IMAGE_MODEL,
	DEFAULT_IMAGE_FAMILY,
	DIMENSION_MODELS,
};
