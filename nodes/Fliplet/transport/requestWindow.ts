import { anySignal, pause, untilAborted } from './abort';
import { Allowance, type PacePolicy } from './allowance';
import type { RateLimit } from './rateLimits';

interface Waiter {
	/** A request the platform refused, sent again: it goes ahead of first attempts. */
	again: boolean;
	/** Ends the waiter's current wait early, to look again (set while it waits). */
	wake?: () => void;
}

/**
 * The requests of this n8n process in the last window, for one host, token and area. A request
 * counts from the moment its answer (or failure) arrived, which is never before the server counted
 * it, so a request sent once the oldest counted one is a full window old is never refused by this
 * process's own use. Requests wait their turn first come, first served; a request sent again after
 * a refusal goes first.
 *
 * With a pace (the windows the transport uses), the window holds only the process's allowance,
 * which other processes on the token make it shrink and grow (see Allowance). Until a refusal it
 * sends full windows of its share (each place a little after it frees); once refused, or past its
 * share, requests beyond a small burst go out evenly spaced, so those of several processes
 * interleave instead of meeting in bursts. Without a pace, it holds the whole limit and sends as
 * soon as a place is free.
 */
export class RequestWindow {
	private readonly ended: number[] = [];
	private pending = 0;
	private heldUntil = 0;
	private readonly line: Waiter[] = [];
	/** Requests answered with anything but a refusal (429). */
	served = 0;
	/** When the requests now in the window began: the first one sent into an empty window. */
	private busySince = 0;
	/** The process's share of the limit, when paced. */
	readonly allowance?: Allowance;

	constructor(
		readonly rate: RateLimit,
		pace?: { policy: PacePolicy; processes: number },
	) {
		if (pace) this.allowance = new Allowance(rate, pace.policy, pace.processes);
	}

	/**
	 * Waits until the requests ahead of this one have their place, then until one more fits in the
	 * window, no refusal holds it and (paced) its even time has come, and takes it. `again`: the
	 * request was refused and goes ahead of first attempts. An abort of `signal` ends the wait:
	 * false. `onWaited`: told how long the request waited, when the window made it wait (a clock
	 * that moved while nothing held the request is no wait).
	 */
	async reserve(
		signal?: AbortSignal,
		again = false,
		onWaited?: (ms: number) => void,
	): Promise<boolean> {
		const asked = Date.now();
		let held = false;
		const me: Waiter = { again };
		const firstAttempt = again ? this.line.findIndex((waiter) => !waiter.again) : -1;
		if (firstAttempt === -1) this.line.push(me);
		else this.line.splice(firstAttempt, 0, me);
		try {
			// Only an abort ends the wait early: the request is not sent.
			for (;;) {
				if (signal?.aborted) return false;
				const now = Date.now();
				const wait = this.line[0] === me ? this.waitFor(now) : Infinity;
				if (wait <= 0) {
					this.take(now);
					if (held) onWaited?.(now - asked);
					return true;
				}
				held = true;
				if (!(await this.sleep(me, wait, signal))) return false;
			}
		} finally {
			this.line.splice(this.line.indexOf(me), 1);
			this.line[0]?.wake?.();
		}
	}

	/** Milliseconds until the first in line may go (Infinity: until a request on its way ends). */
	private waitFor(now: number): number {
		// A place is free again a window after its request ended (plus, sending full windows, the
		// lag that leaves it to another process's refused request first: see Allowance).
		const heldMs = this.rate.windowMs + (this.allowance?.retakeLagMs ?? 0);
		while (this.ended.length && this.ended[0] <= now - heldMs) this.ended.shift();
		if (now < this.heldUntil) return this.heldUntil - now;
		const places = this.allowance?.places ?? this.rate.limit;
		if (this.ended.length + this.pending >= places) {
			this.allowance?.noteFullUse();
			// Every place is taken by a request still on its way: its end starts its window.
			return this.ended.length ? this.ended[0] + heldMs - now + 1 : Infinity;
		}
		const early = this.allowance ? this.allowance.earliest() - now : 0;
		if (early > 0) this.allowance!.noteFullUse();
		return early;
	}

	private take(now: number): void {
		// A request into an empty window starts a busy spell (`ended` grows in time order: the last
		// one tells, as in isIdle).
		const last = this.ended[this.ended.length - 1] ?? -Infinity;
		if (!this.pending && last <= now - this.rate.windowMs) {
			this.busySince = now;
		}
		this.pending++;
		this.allowance?.take(now);
	}

	/** Waits `ms` (Infinity: until woken) or until woken; false when `signal` aborted the wait. */
	private async sleep(me: Waiter, ms: number, signal?: AbortSignal): Promise<boolean> {
		const woken = new AbortController();
		me.wake = () => woken.abort();
		const either = anySignal([signal, woken.signal])!;
		try {
			// A promise of its own each time: one shared would keep every wait's reaction forever.
			if (ms === Infinity) await untilAborted(new Promise<void>(() => undefined), either);
			else await pause(ms, either);
		} catch {
			// Woken, or aborted: told apart below.
		} finally {
			me.wake = undefined;
		}
		return !signal?.aborted;
	}

	release(served: boolean): void {
		this.pending--;
		this.ended.push(Date.now());
		if (served) this.served++;
		this.line[0]?.wake?.();
	}

	/** After a refusal that says when to come back: nobody goes before then. */
	hold(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}

	/**
	 * The platform refused a request (429) and named `reopensAt` (or the loop chose a backoff):
	 * returns when it may be sent again, and holds every request of the window until then. Paced,
	 * the allowance shrinks and a random spread is added (see Allowance.refuse).
	 */
	refused(reopensAt: number, refusalsInARow: number): number {
		const now = Date.now();
		const until = this.allowance
			? this.allowance.refuse(
					now,
					reopensAt,
					refusalsInARow,
					this.shareOfTheFullWindow(now, reopensAt),
				)
			: reopensAt;
		this.hold(until);
		return until;
	}

	/**
	 * The requests this process had among those the platform counted when it refused at `now`,
	 * naming `reopensAt`: its oldest one arrived a window before that. A process that joined after
	 * that oldest request had less time to send: its count is scaled to the whole span, as if it had
	 * sent at its rate all along.
	 */
	private shareOfTheFullWindow(now: number, reopensAt: number): number {
		const since = reopensAt - this.rate.windowMs;
		const sent = this.ended.filter((end) => end > since).length + this.pending;
		const spanMs = now - since;
		const ownMs = now - Math.max(since, this.busySince);
		return spanMs > 0 && ownMs < spanMs ? (sent * spanMs) / Math.max(ownMs, spanMs / 100) : sent;
	}

	/** When the hold of the last refusal ends (0: never held). */
	get holdEnds(): number {
		return this.heldUntil;
	}

	/** Whether the window holds nothing that still counts, so it can be forgotten. */
	isIdle(now: number): boolean {
		const last = this.ended[this.ended.length - 1] ?? 0;
		return (
			!this.pending &&
			!this.line.length &&
			now >= this.heldUntil &&
			last <= now - this.rate.windowMs
		);
	}
}
