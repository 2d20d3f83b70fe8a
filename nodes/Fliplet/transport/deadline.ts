import { anySignal, pause } from './abort';

/** Why a request was abandoned at its deadline; its code makes it a timeout like any other. */
export class DeadlineError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly ms: number) {
		super(`no complete answer within ${ms / 1000} s`);
		this.name = 'DeadlineError';
	}
}

export interface Deadline {
	/** Aborts at the deadline, or when `parent` does. */
	signal: AbortSignal;
	/** Whether the deadline itself (not the parent) ended the request. */
	readonly expired: boolean;
	/** Ends the deadline's timer: call it once the answer is in, or the request failed. */
	clear(): void;
}

/**
 * One deadline for a whole request: connecting, sending the body and reading the whole answer
 * must be done within `ms`. (The HTTP client's own timeout only bounds the time the socket is idle,
 * so an answer that trickles in a byte at a time would never end.)
 */
export function startDeadline(ms: number, parent?: AbortSignal): Deadline {
	const deadline = new AbortController();
	const done = new AbortController();
	let expired = false;
	pause(ms, done.signal).then(
		() => {
			expired = true;
			deadline.abort(new DeadlineError(ms));
		},
		// Cleared before the deadline: the request is over, nothing to do.
		() => undefined,
	);
	return {
		signal: anySignal([deadline.signal, parent])!,
		get expired() {
			return expired;
		},
		clear: () => done.abort(),
	};
}
