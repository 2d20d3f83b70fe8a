export const MAX_RATE_LIMIT_WAITS = 8;
export const MAX_SINGLE_WAIT_MS = 65_000;
/** The least wait after a 429, even one that names a time already past. */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
export const MAX_FAULT_RETRIES = 3;
const BACKOFF_BASE_MS = 300;
const BACKOFF_CAP_MS = 8_000;

type HeaderBag = Record<string, unknown> | undefined;

export function header(headers: HeaderBag, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return value === undefined || value === null ? undefined : String(value);
}

/**
 * When a 429 says the requests will be accepted again: the body's `nextValidRequestDate`, else
 * `Retry-After` (seconds or an HTTP date); undefined when it names no time.
 */
export function namedReopening(
	body: unknown,
	headers: HeaderBag,
	now = Date.now(),
): number | undefined {
	const next =
		body && typeof body === 'object'
			? (body as { nextValidRequestDate?: unknown }).nextValidRequestDate
			: undefined;
	if (typeof next === 'string' || typeof next === 'number') {
		const at = new Date(next).getTime();
		if (!Number.isNaN(at)) return at;
	}
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter === undefined) return undefined;
	const seconds = Number(retryAfter);
	const at = Number.isFinite(seconds) ? now + seconds * 1000 : new Date(retryAfter).getTime();
	return Number.isNaN(at) ? undefined : at;
}

/**
 * How long a 429 asks us to wait: until the time it names (see namedReopening), else a backoff.
 * Always at least 50 ms and at most MAX_SINGLE_WAIT_MS.
 */
export function rateLimitWaitMs(
	body: unknown,
	headers: HeaderBag,
	attempt: number,
	now = Date.now(),
): number {
	const reopensAt = namedReopening(body, headers, now);
	const wait = reopensAt === undefined ? backoffMs(attempt) : reopensAt - now;
	return Math.min(
		MAX_SINGLE_WAIT_MS,
		Math.max(MIN_RATE_LIMIT_WAIT_MS, Math.ceil(wait) + jitterMs(100)),
	);
}

/**
 * A refusal whose named time is further away than any wait the node makes: a cap (a day's AI
 * requests of the plan, say), not a pace to wait out.
 */
export function isCapReached(reopensAt: number | undefined, now = Date.now()): boolean {
	return reopensAt !== undefined && reopensAt - now > MAX_SINGLE_WAIT_MS;
}

/** Exponential backoff with full jitter on top of a growing floor. */
export function backoffMs(attempt: number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
	return Math.round(ceiling / 2 + jitterMs(ceiling / 2));
}

function jitterMs(max: number): number {
	return Math.random() * max;
}

const RETRYABLE_NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
	'UND_ERR_SOCKET',
]);

/**
 * An answer whose body was cut mid-way: the connection closed before all of it arrived (axios:
 * "stream has been aborted" with ERR_BAD_RESPONSE, which it also uses for answers it could not
 * read, so the message decides).
 */
export function isCutBody(code: string | undefined, message: string): boolean {
	if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'UND_ERR_SOCKET') return true;
	return /stream has been aborted|premature close|^aborted$|^terminated$/i.test(message);
}

export function isNetworkFault(code: string | undefined, message: string): boolean {
	if (code && RETRYABLE_NETWORK_CODES.has(code)) return true;
	if (isCutBody(code, message)) return true;
	return /socket hang up|timeout|network|ECONNRESET|ECONNREFUSED/i.test(message);
}

/** A request that timed out or lost its connection after being written may have been processed. */
export function mayHaveReachedServer(code: string | undefined, message: string): boolean {
	return code !== 'ECONNREFUSED' && code !== 'EAI_AGAIN' && !/ECONNREFUSED|ENOTFOUND/.test(message);
}
