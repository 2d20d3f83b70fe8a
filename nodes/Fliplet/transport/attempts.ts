import type { IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import { abortReason, pauseUnlessAborted, RunEndedError } from './abort';
import { DeadlineError, startDeadline } from './deadline';
import type { ApiFailure } from './errors';
import { sendPaced, type RequestWindow } from './pacing';
import { withoutTrailingSlashes } from './baseUrl';
import { mayFollowRedirect, redirectTarget } from './redirects';
import {
	backoffMs,
	isCapReached,
	isCutBody,
	isNetworkFault,
	mayHaveReachedServer,
	MAX_FAULT_RETRIES,
	MAX_RATE_LIMIT_WAITS,
	MIN_RATE_LIMIT_WAIT_MS,
	namedReopening,
	rateLimitWaitMs,
} from './retryPolicy';

export interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** What an attempt met; the request's own fields and the attempts are added by `fail`. */
type Failure = Omit<ApiFailure, 'method' | 'path' | 'idempotent' | 'itemIndex' | 'attempts'>;

export interface Exchange {
	method: IHttpRequestMethods;
	options: IHttpRequestOptions;
	idempotent: boolean;
	/** Sends the options once, ending it when `options.abortSignal` aborts. */
	send: (options: IHttpRequestOptions) => Promise<RawResponse>;
	/** Milliseconds the whole of one attempt may take. */
	deadlineMs: number;
	/** The credential field that sets `deadlineMs`, for the error. */
	timeoutField?: string;
	/** The shared rate window of the request's area, if it is paced. */
	window?: RequestWindow;
	/** Told how long an attempt waited for its place in the window, when it waited. */
	onWaited?: (ms: number) => void;
	/** Ends the request: a stopped execution, an ended run or the caller's own signal. */
	signal?: AbortSignal;
	parseError: (response: RawResponse) => unknown;
	fail: (failure: Failure & Pick<ApiFailure, 'attempts'>) => Error;
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

function networkKind(code: string | undefined, message: string): Failure['networkKind'] {
	if (isCutBody(code, message)) return 'cut';
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || /timeout/i.test(message)) return 'timeout';
	return 'network';
}

/** What one attempt met, in a few words (for "the first attempt met …"). */
function causeText(failure: Failure): string {
	if (failure.status === undefined) return failure.networkMessage ?? 'a network failure';
	const body = failure.body as { message?: unknown } | undefined;
	const message = typeof body?.message === 'string' ? `: ${body.message}` : '';
	return `HTTP ${failure.status}${message}`;
}

function cancelText(signal: AbortSignal): string {
	const reason = abortReason(signal);
	return reason instanceof RunEndedError
		? reason.message
		: 'the execution was stopped, or the caller gave up on it';
}

/** What one attempt came to: an answer, a failure, or the signal stopped it. */
type Outcome = { response: RawResponse } | { error: unknown } | { stopped: true };

/**
 * Sends a request until it is answered, within one deadline per attempt: waits for a place in its
 * rate window, waits and re-sends after a 429 as the API asks, re-sends after a fault only what is
 * safe to send twice, follows same-origin redirects of GET requests, and ends at once (no request,
 * no wait left) when `signal` aborts. Every failure goes through `fail`, saying how many attempts
 * were made and what the first one met.
 */
export async function sendWithRetries(exchange: Exchange): Promise<RawResponse> {
	const { options, idempotent, signal, window } = exchange;
	const origin = new URL(options.baseURL ?? '').origin;
	let attempts = 0;
	let firstCause: string | undefined;
	let earlierAttemptMayHaveLanded = false;
	const fail = (failure: Failure) => {
		const cause = causeText(failure);
		return exchange.fail({
			...failure,
			attempts,
			firstCause: firstCause !== undefined && firstCause !== cause ? firstCause : undefined,
		});
	};
	const noteFailure = (failure: Failure) => {
		firstCause ??= causeText(failure);
	};
	// Stopped: on the way (it may have been processed), waiting for a place, or between attempts.
	const stopped = (onTheWay: boolean) =>
		fail({
			networkKind: 'cancelled',
			networkMessage: cancelText(signal!),
			mayHaveBeenProcessed: idempotent
				? undefined
				: onTheWay || earlierAttemptMayHaveLanded || undefined,
		});
	const sendOnce = async (): Promise<Outcome> => {
		attempts++;
		const deadline = startDeadline(exchange.deadlineMs, signal);
		options.abortSignal = deadline.signal;
		try {
			return { response: await exchange.send(options) };
		} catch (error) {
			if (deadline.expired) return { error: new DeadlineError(exchange.deadlineMs) };
			return signal?.aborted ? { stopped: true } : { error };
		} finally {
			deadline.clear();
		}
	};

	let rateLimitWaits = 0;
	let refusals = 0;
	let servedAtLastRefusal = window?.served;
	let faultRetries = 0;
	let redirects = 0;
	let refusedLast = false;
	for (;;) {
		const outcome = await sendPaced(
			window,
			sendOnce,
			(result) => 'response' in result && result.response.statusCode !== 429,
			signal,
			refusedLast,
			exchange.onWaited,
		);
		refusedLast = false;
		if (!outcome) throw stopped(false);
		if ('stopped' in outcome) throw stopped(true);
		if ('error' in outcome) {
			const { code, message } = networkDetails(outcome.error);
			const reachedServer = mayHaveReachedServer(code, message);
			const failure: Failure = {
				networkCode: code,
				networkMessage: message,
				networkKind: networkKind(code, message),
				timeoutField: exchange.timeoutField,
			};
			noteFailure(failure);
			const safeToResend = idempotent || !reachedServer;
			if (isNetworkFault(code, message) && safeToResend && faultRetries < MAX_FAULT_RETRIES) {
				earlierAttemptMayHaveLanded ||= reachedServer;
				if (!(await pauseUnlessAborted(backoffMs(faultRetries++), signal))) throw stopped(false);
				continue;
			}
			throw fail({ ...failure, mayHaveBeenProcessed: idempotent ? undefined : reachedServer });
		}

		const { response } = outcome;
		const { statusCode } = response;
		if (statusCode >= 300 && statusCode < 400) {
			const target = redirectTarget(
				response.headers,
				`${withoutTrailingSlashes(options.baseURL ?? '')}${options.url}`,
			);
			if (target && mayFollowRedirect(target, origin, exchange.method, redirects)) {
				redirects++;
				attempts--;
				options.baseURL = target.origin;
				options.url = target.pathname + target.search;
				options.qs = undefined;
				continue;
			}
			throw fail({ status: statusCode, redirectedTo: target?.origin ?? 'an unknown address' });
		}
		if (statusCode < 400) return response;
		const body = exchange.parseError(response);
		const failure: Failure = { status: statusCode, body };
		noteFailure(failure);
		// A 429 means the request was refused before any work, so waiting and re-sending is safe.
		if (statusCode === 429) {
			const now = Date.now();
			const reopensAt = namedReopening(body, response.headers, now);
			// A cap that reopens later than any wait: fail now, holding nobody's requests meanwhile.
			if (isCapReached(reopensAt, now)) {
				throw fail({ ...failure, reopensAt: new Date(reopensAt!).toISOString() });
			}
			// When another request to the same window was served since this one's last refusal, the
			// API is serving us and this one only lost the race for a freed place: giving up counts
			// only refusals with nothing served in between.
			const served = window?.served;
			if (served === undefined || served === servedAtLastRefusal) rateLimitWaits++;
			servedAtLastRefusal = served;
			if (rateLimitWaits <= MAX_RATE_LIMIT_WAITS) {
				const wait = rateLimitWaitMs(body, response.headers, refusals++, now);
				// The other requests to that window wait too: sent earlier, they would be refused. The
				// window adds its own spread to the time the refusal named (see Allowance.refuse).
				const named =
					reopensAt === undefined ? now + wait : Math.max(reopensAt, now + MIN_RATE_LIMIT_WAIT_MS);
				const until = window ? window.refused(named, refusals) : now + wait;
				if (!(await pauseUnlessAborted(Math.max(0, until - Date.now()), signal)))
					throw stopped(false);
				refusedLast = true;
				continue;
			}
		}
		if (statusCode >= 500 && idempotent && faultRetries < MAX_FAULT_RETRIES) {
			earlierAttemptMayHaveLanded = true;
			if (!(await pauseUnlessAborted(backoffMs(faultRetries++), signal))) throw stopped(false);
			continue;
		}
		// A DELETE re-sent after an attempt that may have landed finds nothing: that attempt did it.
		if (statusCode === 404 && exchange.method === 'DELETE' && earlierAttemptMayHaveLanded) {
			return { statusCode: 200, headers: response.headers, body: {} };
		}
		throw fail({
			...failure,
			mayHaveBeenProcessed: statusCode >= 500 && !idempotent ? true : undefined,
		});
	}
}
