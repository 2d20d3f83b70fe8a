import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ISupplyDataFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requestSignal, withCancelSignal } from './abort';
import { sendWithRetries, type RawResponse } from './attempts';
import { resolveBaseUrl, type FlipletCredentialData } from './baseUrl';
import { bodyAllowanceMs } from './bodyTimer';
import { toNodeApiError } from './errors';
import { JsonBody, jsonBodyOf } from './jsonBody';
import type { MultipartBody } from './multipart';
import { aiScopeOf } from './aiScope';
import type { StreamedMultipart } from './multipartStream';
import { aiAppOf, rateWindowFor, type RateLimit } from './pacing';
import type { ReadableBytes } from './streams';
import { pathSegment } from './pathSegments';
import { timeoutField, timeoutFor, timeoutKind } from './timeouts';
import { findUnsafeKey } from './unsafeKeys';

/** How long the look-up of an AI app's organization may take before its window falls back to the token's. */
const APP_LISTING_TIMEOUT_MS = 10_000;

/** The client's idle timeout stays this far behind the request's deadline, as a backstop. */
const CLIENT_TIMEOUT_MARGIN_MS = 5_000;

export type FlipletContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions
	| ISupplyDataFunctions;

export const CREDENTIAL_NAME = 'flipletApi';

export interface FlipletRequest {
	method: IHttpRequestMethods;
	/** Path below the host, built with `apiPath` so every segment is URL-encoded. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | JsonBody;
	/** A multipart body: built in memory, or streamed (a fresh one each attempt, see streamedMultipart). */
	multipart?: MultipartBody | StreamedMultipart;
	/**
	 * Whether sending the request twice has the same effect as sending it once. GET is always
	 * idempotent; any other method is only retried after a fault when the caller says so.
	 * Email, SMS, AI, notification create, publish and token create must never set this.
	 */
	idempotent?: boolean;
	itemIndex?: number;
	/** Milliseconds before the request is abandoned (default: the credential's field for its kind). */
	timeout?: number;
	/** Return the raw bytes of the response (e.g. a CSV export) instead of parsed JSON. */
	binaryResponse?: boolean;
	headers?: IDataObject;
	/**
	 * Aborts the request in flight, e.g. the signal an AI agent passes to its model. The execution's
	 * cancel signal and the operation's run scope (see withRunScope) end it too.
	 */
	abortSignal?: AbortSignal;
	/**
	 * Told when the request waited for a place in its area's rate window: how long, and the limit
	 * it waited for (one of AI_LIMITS for AI), so that a run can say why it took its time.
	 */
	onPaced?: (wait: PaceWait) => void;
	/**
	 * Called each time the request goes out: once per attempt (a re-send after a fault or a 429,
	 * a redirect's hop), never for an attempt that waited for a place and was ended before going.
	 * For a caller that counts what it sent.
	 */
	onSent?: () => void;
}

/** A wait for a place in a rate window (see FlipletRequest.onPaced). */
export interface PaceWait {
	waitedMs: number;
	rate: RateLimit;
}

/**
 * Joins path segments below /v1, URL-encoding each one (names may hold `/`, `?`, `#`, spaces).
 * A segment a URL would resolve away (`.`, `..`, empty) is refused: see pathSegment.
 */
export function apiPath(...segments: Array<string | number>): string {
	return '/v1/' + segments.map(pathSegment).join('/');
}

function timeoutMs(request: FlipletRequest, credentials: FlipletCredentialData): number {
	return request.timeout ?? timeoutFor(timeoutKind(request.path), credentials);
}

export function parseJsonBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/**
 * The one place that talks HTTP to Fliplet. Resolves the host from the credential, keeps the
 * requests of this n8n process within the documented rate limit of their area (one window per
 * host, token and area), waits and retries on 429 as the API asks, retries faults only for
 * idempotent requests, gives each attempt one deadline, ends at once when the execution is stopped
 * or the operation has ended, and turns every failure into a NodeApiError that says how to fix it
 * and never contains the token.
 */
export async function flipletApiRequest<T = IDataObject>(
	this: FlipletContext,
	request: FlipletRequest,
): Promise<T> {
	const credentials = await this.getCredentials<FlipletCredentialData>(CREDENTIAL_NAME);
	const resolved = resolveBaseUrl(credentials);
	if ('error' in resolved) {
		throw new NodeOperationError(this.getNode(), resolved.error, {
			itemIndex: request.itemIndex,
			description: 'Edit the Fliplet API credential: pick a region, or give an https:// base URL.',
		});
	}
	const json =
		request.body === undefined || request.body instanceof JsonBody
			? request.body
			: jsonBodyOf(this, request.body, request.itemIndex);
	const unsafeKey = request.multipart
		? request.multipart.unsafeKey
		: json?.value
			? findUnsafeKey(json.value)
			: undefined;
	if (unsafeKey !== undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The data holds a field "${unsafeKey}", which is never sent`,
			{
				itemIndex: request.itemIndex,
				description:
					'Fields named __proto__ (or constructor.prototype) can corrupt objects on a server that merges them (prototype pollution). Rename or remove that field, e.g. with an Edit Fields node.',
			},
		);
	}
	const idempotent = request.method === 'GET' || request.idempotent === true;
	const streamed = request.multipart && 'open' in request.multipart ? request.multipart : undefined;
	const deadlineMs = timeoutMs(request, credentials) + bodyAllowanceMs(streamed?.length ?? 0);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: resolved.url,
		url: request.path,
		qs: request.qs,
		headers: { Accept: 'application/json', ...(request.headers ?? {}) },
		// The client's own timeout only bounds an idle socket: each attempt has one deadline for
		// all of it (see sendWithRetries); this is a backstop behind it.
		timeout: deadlineMs + CLIENT_TIMEOUT_MARGIN_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed below, and only to the same origin: n8n's own redirect handling
		// strips Authorization on a cross-origin hop but would forward the Auth-token header.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (request.binaryResponse) options.encoding = 'arraybuffer';
	if (request.multipart) {
		options.headers!['Content-Type'] = request.multipart.contentType;
		if (streamed) options.headers!['Content-Length'] = String(streamed.length);
		else options.body = (request.multipart as MultipartBody).body;
	} else if (json !== undefined) {
		options.body = json.bytes;
		options.headers!['Content-Type'] = 'application/json';
	}

	const origin = new URL(resolved.url).origin;
	const aiApp = aiAppOf(request.path);
	const aiScope =
		aiApp === undefined
			? undefined
			: await aiScopeOf(origin, credentials.accessToken, aiApp, async () => {
					return await flipletApiRequest.call(this, {
						method: 'GET',
						path: '/v1/apps',
						timeout: APP_LISTING_TIMEOUT_MS,
						abortSignal: request.abortSignal,
					});
				});
	const signal = requestSignal(this, request.abortSignal);
	const window = rateWindowFor(origin, credentials, request.path, aiScope);
	const { onPaced } = request;
	const response = await sendWithRetries({
		method: request.method,
		options,
		idempotent,
		send: async (attempt) => {
			// A streamed body is read by the attempt that sends it: each attempt gets its own.
			if (streamed) attempt.body = await streamed.open();
			if (!attempt.abortSignal?.aborted) request.onSent?.();
			try {
				return (await this.helpers.httpRequestWithAuthentication.call(
					attempt.abortSignal ? withCancelSignal(this, attempt.abortSignal as AbortSignal) : this,
					CREDENTIAL_NAME,
					attempt,
				)) as RawResponse;
			} finally {
				if (streamed && !Buffer.isBuffer(attempt.body)) (attempt.body as ReadableBytes).destroy();
			}
		},
		deadlineMs,
		timeoutField: request.timeout === undefined ? timeoutField(request.path) : undefined,
		window,
		onWaited:
			window && onPaced ? (waitedMs) => onPaced({ waitedMs, rate: window.rate }) : undefined,
		signal,
		parseError: (answer) =>
			parseJsonBody(Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body),
		fail: (details) =>
			toNodeApiError(
				this.getNode(),
				{
					method: request.method,
					path: request.path,
					idempotent,
					itemIndex: request.itemIndex,
					...details,
				},
				credentials.accessToken,
			),
	});
	if (request.binaryResponse) return Buffer.from(response.body as ArrayBuffer) as unknown as T;
	return (parseJsonBody(response.body) ?? {}) as T;
}
