/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { RateLimit } from '../../nodes/Fliplet/transport/rateLimits';

// Plain JavaScript, so the queue-mode tier uses it without a build.
const refusals = require('../../scripts/lib/refusals');

/** What a refusal count needs of a request the sandbox recorded. */
export interface Arrival {
	method: string;
	path: string;
	query?: Record<string, string>;
	status?: number;
	at: number;
	/** A hash of the raw body (a sandbox started with `hashBodies`), else the parsed body is used. */
	bodyHash?: string;
	body?: unknown;
}

export interface RefusalFigures {
	requests: number;
	refused: number;
	/** Accepted requests over the time from the first arrival to the last, against the limit. */
	pace: number;
	/** The same up to `busyUntil` (while every process still had work), when given. */
	busyPace?: number;
	longestRefusalRun: number;
}

/** One request and its re-sends share this: method, path, query and body. */
export const identityOf: (request: Arrival) => string = refusals.identityOf;

/** The most times one request was refused (429) in a row, over requests in arrival order. */
export const longestRefusalRun: (requests: Arrival[]) => number = refusals.longestRefusalRun;

/** See scripts/lib/refusals.js. */
export const refusalFigures: (
	requests: Arrival[],
	rate: RateLimit,
	busyUntil?: number,
) => RefusalFigures = refusals.refusalFigures;
