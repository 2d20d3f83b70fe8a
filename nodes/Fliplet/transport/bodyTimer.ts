import { pause } from './abort';

/**
 * The slowest body allowed for, both ways: an upload gets the time its body takes at this rate on
 * top of its timeout, and so does a download's body once its headers are in.
 */
export const BODY_FLOOR_BYTES_PER_SECOND = 100_000;

/** The time `bytes` take at the slowest rate allowed for. */
export function bodyAllowanceMs(bytes: number): number {
	return Math.ceil((bytes / BODY_FLOOR_BYTES_PER_SECOND) * 1000);
}

/** Which bound a body passed: no byte for longer than the timeout, or the whole body too slow. */
export type BodyExpiry = 'idle' | 'total';

export interface BodyTimer {
	/** Counts bytes that arrived (and the time they did). */
	received(bytes: number): void;
	/** Ends the timer: the body is done, or failed. */
	stop(): void;
	/** The bound the body passed, once it did. */
	readonly expired: BodyExpiry | undefined;
	/** The whole body's bound in ms from the timer's start, given the bytes counted so far. */
	totalMs(): number;
}

/**
 * A timer over an answer's body, started once its headers are in (the request's deadline ends
 * there). `expire` is called once, when no byte came for `idleMs`, or when the body is not done
 * `idleMs` plus the time `sizeBytes` take at 100 kB/s after the timer started. Without a known
 * size the whole-body bound grows with the bytes that came: the body must keep that pace after its
 * first `idleMs`. One wait runs at a time, until the nearer of the two bounds; no timer is left
 * once it expired or was stopped.
 */
export function startBodyTimer(
	idleMs: number,
	sizeBytes: number | undefined,
	expire: (why: BodyExpiry) => void,
): BodyTimer {
	const started = Date.now();
	const stopped = new AbortController();
	let lastByteAt = started;
	let count = 0;
	let expired: BodyExpiry | undefined;
	const totalMs = () => idleMs + bodyAllowanceMs(sizeBytes ?? count);
	const watch = async () => {
		while (!stopped.signal.aborted) {
			const now = Date.now();
			const idleEnds = lastByteAt + idleMs;
			const totalEnds = started + totalMs();
			if (now >= totalEnds || now >= idleEnds) {
				expired = now >= idleEnds ? 'idle' : 'total';
				stopped.abort();
				expire(expired);
				return;
			}
			await pause(Math.min(idleEnds, totalEnds) - now, stopped.signal);
		}
	};
	// A stop ends the wait with a rejection: nothing to do then.
	watch().catch(() => undefined);
	return {
		received(bytes) {
			count += bytes;
			lastByteAt = Date.now();
		},
		stop: () => stopped.abort(),
		get expired() {
			return expired;
		},
		totalMs,
	};
}
