import * as workflow from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

type AbortableSleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** n8n 1.x names its abortable wait `sleepWithAbort`; from 2.x on, `sleep` itself takes the signal. */
const sleepWithAbort = (workflow as unknown as { sleepWithAbort?: AbortableSleep }).sleepWithAbort;

/** The reason a signal gave, as an Error (an abort without a reason gives a DOMException). */
export function abortReason(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	return reason instanceof Error ? reason : new Error(String(reason ?? 'The request was aborted'));
}

/**
 * Waits `ms`, or less: an abort of `signal` ends the wait at once (rejecting with its reason) and
 * clears its timer, so a stopped run leaves no wait behind.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	await untilAborted(sleepWithAbort ? sleepWithAbort(ms, signal) : sleep(ms, signal), signal);
}

/** Waits `ms` as `pause` does; false when `signal` aborted first (the wait then ended at once). */
export async function pauseUnlessAborted(ms: number, signal?: AbortSignal): Promise<boolean> {
	try {
		await pause(ms, signal);
		return true;
	} catch {
		// Only an abort ends a wait early.
		return false;
	}
}

/**
 * `promise`, or its signal's reason as soon as the signal aborts, whichever comes first. The
 * listener is removed either way, so a long-lived signal does not collect them.
 */
export async function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return await promise;
	if (signal.aborted) {
		// Nobody awaits the promise now: its own failure (a wait on the same signal rejects too)
		// must not surface as an unhandled rejection.
		promise.catch(() => undefined);
		throw abortReason(signal);
	}
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(abortReason(signal));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort!);
	}
}

/** One signal that aborts when any of the given ones does (undefined when none is given). */
export function anySignal(signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
	const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
	if (given.length <= 1) return given[0];
	return AbortSignal.any(given);
}

/** Why a run-scoped request was aborted: the operation that sent it has finished (or failed). */
export class RunEndedError extends Error {
	constructor() {
		super('the run that sent the request has ended');
		this.name = 'RunEndedError';
	}
}

const runScopes = new WeakMap<object, AbortSignal>();

/**
 * Runs an operation (`work`) so that every request it sends through the context ends with it: once
 * `work` returns or throws, requests of that context still on their way (pages asked for ahead,
 * their retries, their waits for the rate limit) are aborted, and none starts afterwards.
 */
export async function withRunScope<T>(context: object, work: () => Promise<T>): Promise<T> {
	const scope = new AbortController();
	runScopes.set(context, scope.signal);
	try {
		return await work();
	} finally {
		scope.abort(new RunEndedError());
		if (runScopes.get(context) === scope.signal) runScopes.delete(context);
	}
}

/** The execution's cancel signal (n8n gives it to node contexts that run in an execution). */
function executionSignal(context: object): AbortSignal | undefined {
	const get = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(context) : undefined;
}

/**
 * Everything that ends a request of this context: the caller's own signal (e.g. an AI agent's),
 * the execution's cancel signal (a stopped execution) and the run scope (the operation ended).
 */
export function requestSignal(context: object, own?: AbortSignal): AbortSignal | undefined {
	return anySignal([own, executionSignal(context), runScopes.get(context)]);
}

/**
 * The context as n8n's HTTP helper should see it: n8n hands the request the signal the context's
 * `getExecutionCancelSignal()` returns (replacing the request's own `abortSignal`), so the view
 * returns the combined signal instead.
 */
export function withCancelSignal<T extends object>(context: T, signal: AbortSignal): T {
	return Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as T;
}
