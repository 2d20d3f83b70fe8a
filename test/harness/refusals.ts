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
	/** The time a refusal named (the sandbox records it): a re-send never comes before it. */
	reopensAt?: number;
	/** A hash of the raw body (a sandbox started with `hashBodies`), else the parsed body is used. */
	bodyHash?: string;
	body?: unknown;
	/** The sender's tag (a base URL ending in `/__tag/<tag>`): requests of two tags are two requests. */
	tag?: string;
}

export interface RefusalFigures {
	requests: number;
	refused: number;
	/**
	 * The least time the limit's windows allow for the accepted requests over the time they took,
	 * from the first arrival to the last accepted one (1: the best pace).
	 */
	pace: number;
	/** That least time, in windows: the pace means something for runs of a few windows. */
	bestWindows: number;
	/** The same up to `busyUntil` (while every process still had work), when given. */
	busyPace?: number;
	/** The longest run of refusals of one request (alike requests told apart by named times). */
	longestRefusalRun: number;
	/** The same, counting alike requests (method, path, query and body, of any tag) as one. */
	alikeRefusalRun: number;
}

/** One request and its re-sends share this: the sender's tag, method, path, query and body. */
export const identityOf: (request: Arrival) => string = refusals.identityOf;

/** The most times one request was refused (429) in a row, over requests in arrival order. */
export const longestRefusalRun: (requests: Arrival[]) => number = refusals.longestRefusalRun;

/** See scripts/lib/refusals.js. */
export const refusalFigures: (
	requests: Arrival[],
	rate: RateLimit,
	busyUntil?: number,
) => RefusalFigures = refusals.refusalFigures;
