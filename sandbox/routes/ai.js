'use strict';

const { HttpError, badRequest, isObject } = require('../http');
const { findAppPair, canReachApp } = require('../access');
const providers = require('../ai/providers');
const { requireProviderOf } = require('../ai/aiProvider');
const { chatOptions, responsesOptions } = require('../ai/chatOptions');
const { geminiRequest } = require('../ai/geminiRequest');
const {
	MODELS,
	RETIRED,
	LEGACY_IMAGE_MODELS,
	DEFAULT_IMAGE_MODEL,
	DEFAULT_IMAGE_FAMILY,
	DIMENSION_MODELS,
} = require('../ai/models');

const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
const AUDIO_TYPES = ['audio/webm', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/ogg'];
/** Credits each published app starts with; tests set `state.ai.credits[appId]` to reach 402. */
const DEFAULT_CREDITS = 1000;

/**
 * AI calls need the published app (its productionAppId) for every token kind: a draft id, an
 * unrelated or an unreachable app answers 404 (SPEC, authentication rule 3).
 */
function requirePublishedApp(state, principal, rawId) {
	const appId = Number(rawId);
	const pair = Number.isInteger(appId) ? findAppPair(state, appId) : undefined;
	if (!pair || pair.isDraftId || !canReachApp(state, principal, appId)) {
		throw new HttpError(
			404,
			`The app ${rawId} is not available for AI with this token: AI needs the published app's id (productionAppId), not the draft's.`,
		);
	}
	return appId;
}

function rejectDevelopment(query, body) {
	const fields = isObject(body?.multipart) ? body.multipart.fields : body;
	if ('development' in query || (isObject(fields) && 'development' in fields)) {
		throw badRequest('The "development" parameter is not accepted by the REST API.');
	}
}

function requireModel(kind, model) {
	if (typeof model !== 'string' || !model) throw badRequest('An explicit "model" is required.');
	if (Object.hasOwn(RETIRED, model)) throw badRequest(RETIRED[model], { type: 'ai.provider' });
	if (!MODELS[kind].includes(model)) {
		throw badRequest(`The model "${model}" is not configured for ${kind}.`, { type: 'ai.model' });
	}
}

/** Throws 402 when the app has no credit left; otherwise takes one credit. */
function charge(state, appId) {
	const credits = state.ai.credits ?? (state.ai.credits = {});
	const left = credits[appId] ?? DEFAULT_CREDITS;
	if (left <= 0)
		throw new HttpError(402, 'Insufficient AI credits for this app.', { type: 'ai.credits' });
	credits[appId] = left - 1;
}

/**
 * Records a call handed to the fake provider (the billable moment). A client that goes away
 * before the answer marks it `cancelled`: the provider's work and its charge stay.
 */
function record(state, appId, endpoint, details, onClientGone) {
	const call = { appId, endpoint, at: new Date(state.now()).toISOString(), ...details };
	state.ai.calls.push(call);
	onClientGone?.(() => {
		call.cancelled = true;
	});
}

/** The completions format a body selects, after refusing ambiguous or retired shapes. */
function completionFormat(body) {
	const present = ['messages', 'input', 'contents'].filter((key) => body[key] !== undefined);
	if (body.prompt && !body.stream) {
		throw badRequest(
			'Legacy prompt completions are retired: use the chat-completions (messages) or responses (input) format.',
		);
	}
	if (present.length !== 1) {
		throw badRequest(
			'Send exactly one input format: messages, input (with useResponses: true) or contents.',
		);
	}
	const [key] = present;
	if (key === 'input') {
		if (body.useResponses !== true)
			throw badRequest('The responses format needs "useResponses": true.');
		return 'responses';
	}
	// The platform's JS docs show `useResponses: false` with messages ("or omit this parameter").
	if (body.useResponses !== undefined && !(key === 'messages' && body.useResponses === false))
		throw badRequest('"useResponses" is only for the responses format (input).');
	if (key === 'contents') {
		if (!Array.isArray(body.contents) || !body.contents.length)
			throw badRequest('"contents" must be a non-empty array.');
		return 'generate-content';
	}
	if (!Array.isArray(body.messages) || !body.messages.length)
		throw badRequest('"messages" must be a non-empty array.');
	return 'chat-completions';
}

const PROVIDER_BY_FORMAT = {
	'chat-completions': providers.chatCompletion,
	responses: providers.responsesOutput,
	'generate-content': providers.generateContent,
};

function completions({ state, principal, params, query, body, onClientGone }) {
	const appId = requirePublishedApp(state, principal, params.app);
	rejectDevelopment(query, body);
	if (!isObject(body)) throw badRequest('The body must be a JSON object.');
	const format = completionFormat(body);
	requireProviderOf(body, format);
	requireModel(format, body.model);
	const checkOptions = {
		'chat-completions': chatOptions,
		responses: responsesOptions,
		'generate-content': geminiRequest,
	}[format];
	const options = checkOptions?.(body);
	charge(state, appId);
	record(
		state,
		appId,
		'completions',
		{ format, model: body.model, stream: body.stream === true },
		onClientGone,
	);
	if (body.stream === true) {
		return { body: { message: 'Streaming started: the content is delivered over sockets.' } };
	}
	return { body: PROVIDER_BY_FORMAT[format](body, options) };
}

function image({ state, principal, params, query, body }) {
	const appId = requirePublishedApp(state, principal, params.app);
	rejectDevelopment(query, body);
	if (!isObject(body)) throw badRequest('The body must be a JSON object.');
	const legacy = LEGACY_IMAGE_MODELS.includes(body.model);
	const model = legacy ? DEFAULT_IMAGE_MODEL : body.model;
	requireModel('image', model);
	if (typeof body.prompt !== 'string' || !body.prompt.trim())
		throw badRequest('"prompt" is required.');
	if (body.n !== undefined && (!Number.isInteger(body.n) || body.n < 1 || body.n > 10)) {
		throw badRequest('"n" must be a whole number from 1 to 10.');
	}
	const sent = { ...body, model };
	// SPEC: response_format and style are removed for the default image model's family, whether
	// it was asked for by name or replaced a legacy name.
	if (model.startsWith(DEFAULT_IMAGE_FAMILY)) {
		delete sent.response_format;
		delete sent.style;
	}
	charge(state, appId);
	record(state, appId, 'image', { model, requestedModel: body.model, forwarded: sent });
	return { body: providers.images(sent) };
}

function audio({ state, principal, params, query, body }) {
	const appId = requirePublishedApp(state, principal, params.app);
	rejectDevelopment(query, body);
	const form = isObject(body) && isObject(body.multipart) ? body.multipart : undefined;
	const files = form ? form.files.filter((file) => file.name === 'file') : [];
	if (!form || files.length === 0) throw badRequest('Missing audio file');
	if (form.files.length !== 1) throw badRequest('Send exactly one file part.');
	const model = form.fields.model;
	if (model !== undefined && !MODELS.transcription.includes(model)) {
		throw badRequest(`Unsupported transcription model "${model}".`);
	}
	const [file] = files;
	if (file.data.length > MAX_AUDIO_BYTES)
		throw new HttpError(413, 'The audio file is larger than 25 MiB.');
	const baseType = file.mimeType.split(';')[0].trim().toLowerCase();
	if (!AUDIO_TYPES.includes(baseType))
		throw new HttpError(415, `Unsupported audio type ${file.mimeType}.`);
	charge(state, appId);
	record(state, appId, 'audio', {
		model,
		fileName: file.fileName,
		mimeType: file.mimeType,
		bytes: file.data.length,
	});
	return { body: providers.transcribe(file) };
}

function embeddings({ state, principal, params, query, body, onClientGone }) {
	const appId = requirePublishedApp(state, principal, params.app);
	rejectDevelopment(query, body);
	if (!isObject(body)) throw badRequest('The body must be a JSON object.');
	const { input } = body;
	const validInput =
		(typeof input === 'string' && input !== '') ||
		(Array.isArray(input) &&
			input.length > 0 &&
			input.every((text) => typeof text === 'string' && text !== ''));
	if (!validInput) throw badRequest('"input" is required: a string or an array of strings.');
	requireModel('embeddings', body.model);
	if (body.encoding_format !== undefined && !['float', 'base64'].includes(body.encoding_format)) {
		throw badRequest('"encoding_format" must be float or base64.');
	}
	if (body.dimensions !== undefined) {
		if (!DIMENSION_MODELS.includes(body.model))
			throw badRequest(`The model "${body.model}" does not support dimensions.`);
		if (!Number.isInteger(body.dimensions) || body.dimensions < 1)
			throw badRequest('"dimensions" must be a positive whole number.');
	}
	charge(state, appId);
	record(
		state,
		appId,
		'embeddings',
		{ model: body.model, inputs: Array.isArray(input) ? input.length : 1 },
		onClientGone,
	);
	return { body: providers.embeddings(body) };
}

/** The app of an AI call the token may make; undefined for another organization's app or a draft. */
function reachablePair({ state, principal, params }) {
	const appId = Number(params.app);
	const pair = findAppPair(state, appId);
	return !pair || pair.isDraftId || !canReachApp(state, principal, appId) ? undefined : pair;
}

/**
 * Whose per-minute AI limit a call counts against: SPEC (Limits): "all AI operations share one
 * per-app limit", whichever token calls; the AI docs ("Rate Limiting"): "the overall usage of the
 * AI APIs under your account/organization". `state.aiLimitScope` picks the reading: `app` (the
 * default) or `organization` (POST /__sandbox/rate-limits `{aiScope}`; a reset brings the default
 * back). A call the token may not make counts against the token, so it cannot use up that limit.
 */
function aiLimitKey(context) {
	const pair = reachablePair(context);
	if (!pair) return undefined;
	return context.state.aiLimitScope === 'organization'
		? `organization:${pair.draft.organizationId}`
		: `app:${Number(context.params.app)}`;
}

/** The AI docs' daily cap is the organization's, under either reading of the per-minute limit. */
function aiDayCapKey(context) {
	const pair = reachablePair(context);
	return pair ? `organization:${pair.draft.organizationId}` : undefined;
}

/**
 * The AI docs ("Rate Limiting"): 10 requests a minute on the Free plan, 100 on the others, for the
 * organization's usage. The plan is the app's organization's (state.plans, Free when unset).
 */
function areaByPlan({ state, params }) {
	const pair = findAppPair(state, Number(params.app));
	return pair && state.plans.get(pair.draft.organizationId) === 'paid' ? 'aiPaid' : 'ai';
}

const routes = [
	{ method: 'POST', path: '/v1/apps/:app/ai/completions', handler: completions },
	{ method: 'POST', path: '/v1/apps/:app/ai/image', handler: image },
	{ method: 'POST', path: '/v1/apps/:app/ai/audio', handler: audio },
	{ method: 'POST', path: '/v1/apps/:app/ai/embeddings', handler: embeddings },
].map((route) => ({
	...route,
	area: 'ai',
	rateArea: areaByPlan,
	rateKey: aiLimitKey,
	dayCapKey: aiDayCapKey,
}));

module.exports = { routes, MAX_AUDIO_BYTES, AUDIO_TYPES, DEFAULT_CREDITS };
