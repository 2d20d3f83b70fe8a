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
import { NodeOperationError, sleep } from 'n8n-workflow';

import { resolveBaseUrl, withoutTrailingSlashes, type FlipletCredentialData } from './baseUrl';
import { toNodeApiError, type ApiFailure } from './errors';
import { JsonBody, jsonBodyOf } from './jsonBody';
import type { MultipartBody } from './multipart';
import { holdPacedArea, sendPaced, servedInPacedArea } from './pacing';
import { pathSegment } from './pathSegments';
import { mayFollowRedirect, redirectTarget } from './redirects';
import {
	backoffMs,
	isNetworkFault,
	mayHaveReachedServer,
	MAX_FAULT_RETRIES,
	MAX_RATE_LIMIT_WAITS,
	rateLimitWaitMs,
} from './retryPolicy';
import { timeoutFor, timeoutKind } from './timeouts';
import { findUnsafeKey } from './unsafeKeys';

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
	multipart?: MultipartBody;
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
	/** Aborts the request in flight, e.g. the signal an AI agent passes to its model. */
	abortSignal?: AbortSignal;
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/**
 * Joins path segments below /v1, URL-encoding each one (names may hold `/`, `?`, `#`, spaces).
 * A segment a URL would resolve away (`.`, `..`, empty) is refused: see pathSegment.
 */
export function apiPath(...segments: Array<string | number>): string {
	return '/v1/' + segments.map(pathSegment).join('/');
}

/** The context with a cancel signal that aborts when its own or `signal` does. */
function cancelledAlsoBy(context: FlipletContext, signal: AbortSignal): FlipletContext {
	const own =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const either = own ? AbortSignal.any([own, signal]) : signal;
	return Object.assign(Object.create(context) as FlipletContext, {
		getExecutionCancelSignal: () => either,
	});
}

function networkDetails(error: unknown): { code?: string; message: string } {
	const err = error as {
		code?: string;
		message?: string;
		cause?: { code?: string; message?: string };
	};
	const code = err?.cause?.code ?? err?.code;
	const message = err?.cause?.message ?? err?.message ?? 'unknown network error';
	return { code: typeof code === 'string' ? code : undefined, message: String(message) };
}

function timeoutMs(request: FlipletRequest, credentials: FlipletCredentialData): number {
	return request.timeout ?? timeoutFor(timeoutKind(request.path), credentials);
}

function parseJsonBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/**
 * The one place that talks HTTP to Fliplet. Resolves the host from the credential, waits and
 * retries on 429 as the API asks, retries faults only for idempotent requests, and turns every
 * failure into a NodeApiError that says how to fix it and never contains the token.
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
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: resolved.url,
		url: request.path,
		qs: request.qs,
		headers: { Accept: 'application/json', ...(request.headers ?? {}) },
		timeout: timeoutMs(request, credentials),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed below, and only to the same origin: n8n's own redirect handling
		// strips Authorization on a cross-origin hop but would forward the Auth-token header.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		json: !request.multipart && !request.binaryResponse,
	};
	// n8n's helper replaces a request's abortSignal with the execution's cancel signal (n8n-core
	// 2.41): a request with its own signal is sent through a context that gives either of the two.
	const sender = request.abortSignal ? cancelledAlsoBy(this, request.abortSignal) : this;
	if (request.binaryResponse) options.encoding = 'arraybuffer';
	if (request.multipart) {
		options.body = request.multipart.body;
		options.headers!['Content-Type'] = request.multipart.contentType;
	} else if (json !== undefined) {
		options.body = json.bytes;
		options.headers!['Content-Type'] = 'application/json';
	}

	const origin = new URL(resolved.url).origin;
	const fail = (details: Omit<ApiFailure, 'method' | 'path' | 'idempotent' | 'itemIndex'>) =>
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
		);
	let rateLimitWaits = 0;
	let refusals = 0;
	let servedAtLastRefusal = servedInPacedArea(this, options.url);
	let faultRetries = 0;
	let redirects = 0;
	let earlierAttemptMayHaveLanded = false;
	for (let attempt = 1; ; attempt++) {
		let response: RawResponse;
		try {
			response = (await sendPaced(
				this,
				options.url,
				async () =>
					sender.helpers.httpRequestWithAuthentication.call(sender, CREDENTIAL_NAME, options),
				(answer) => (answer as RawResponse).statusCode === 429,
			)) as RawResponse;
		} catch (error) {
			const { code, message } = networkDetails(error);
			const reachedServer = mayHaveReachedServer(code, message);
			const safeToResend = idempotent || !reachedServer;
			if (isNetworkFault(code, message) && safeToResend && faultRetries < MAX_FAULT_RETRIES) {
				earlierAttemptMayHaveLanded ||= reachedServer;
				await sleep(backoffMs(faultRetries++));
				continue;
			}
			throw fail({
				networkCode: code,
				networkMessage: message,
				attempts: attempt,
				mayHaveBeenProcessed: idempotent ? undefined : reachedServer,
			});
		}

		const { statusCode } = response;
		if (statusCode >= 300 && statusCode < 400) {
			const target = redirectTarget(
				response.headers,
				`${withoutTrailingSlashes(options.baseURL ?? '')}${options.url}`,
			);
			if (target && mayFollowRedirect(target, origin, request.method, redirects)) {
				redirects++;
				attempt--;
				options.baseURL = target.origin;
				options.url = target.pathname + target.search;
				options.qs = undefined;
				continue;
			}
			throw fail({
				status: statusCode,
				redirectedTo: target?.origin ?? 'an unknown address',
				attempts: attempt,
			});
		}
		if (statusCode < 400) {
			if (request.binaryResponse) return Buffer.from(response.body as ArrayBuffer) as unknown as T;
			return (parseJsonBody(response.body) ?? {}) as T;
		}
		const body = parseJsonBody(
			Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.body,
		);
		// A 429 means the request was refused before any work, so waiting and re-sending is safe for all.
		if (statusCode === 429) {
			// When another request of this execution was served since this one's last refusal, the API
			// is serving us and this one only lost the race for a freed place: giving up counts only
			// refusals with nothing served in between.
			const served = servedInPacedArea(this, options.url);
			if (served === undefined || served === servedAtLastRefusal) rateLimitWaits++;
			servedAtLastRefusal = served;
			if (rateLimitWaits <= MAX_RATE_LIMIT_WAITS) {
				const wait = rateLimitWaitMs(body, response.headers, refusals++);
				holdPacedArea(this, options.url, Date.now() + wait);
				await sleep(wait);
				continue;
			}
		}
		if (statusCode >= 500 && idempotent && faultRetries < MAX_FAULT_RETRIES) {
			earlierAttemptMayHaveLanded = true;
			await sleep(backoffMs(faultRetries++));
			continue;
		}
		// A DELETE re-sent after an attempt that may have landed finds nothing: that attempt did it.
		if (statusCode === 404 && request.method === 'DELETE' && earlierAttemptMayHaveLanded) {
			return {} as T;
		}
		throw fail({
			status: statusCode,
			body,
			attempts: attempt,
			mayHaveBeenProcessed: statusCode >= 500 && !idempotent ? true : undefined,
		});
	}
}
