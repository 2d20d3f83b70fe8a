/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// A virtual clock for simulations: setTimeout, clearTimeout and Date.now are replaced, and time
// jumps from one timer to the next, so an hour of requests runs in a second. Promises settle
// between timers as they would (one real setImmediate each), so async code runs unchanged.
// Each timer keeps the async context that set it (`context.run(owner, ...)`), so a simulated
// process's event loop can stall: its timers wait until the stall ends, as on a busy machine.
import { AsyncLocalStorage } from 'async_hooks';

interface Timer {
	at: number;
	seq: number;
	fn: (...args: unknown[]) => void;
	args: unknown[];
	cancelled: boolean;
	/** Who set it (the context's store): its callback runs in that context again. */
	owner: unknown;
}

/** When the event loop of `owner` is free again (a time on the clock), or undefined: not stalled. */
export type StallOf = (owner: unknown, now: number) => number | undefined;

const OWNERS = new AsyncLocalStorage<unknown>();

export class VirtualClock {
	now = 0;
	/**
	 * The context timers are owned by: run a simulated process's code in `context.run(owner, …)`.
	 * One for every clock: each instance slows every promise a little while it lives.
	 */
	readonly context = OWNERS;
	/** Stalled owners' timers fire when their stall ends. */
	stallOf?: StallOf;
	private seq = 0;
	private readonly heap: Timer[] = [];
	private readonly real = {
		setTimeout: globalThis.setTimeout,
		clearTimeout: globalThis.clearTimeout,
		dateNow: Date.now,
		setImmediate: globalThis.setImmediate,
	};

	install(): void {
		globalThis.setTimeout = ((
			fn: (...args: unknown[]) => void,
			ms?: number,
			...args: unknown[]
		) => {
			const timer: Timer = {
				at: this.now + Math.max(0, Number(ms) || 0),
				seq: this.seq++,
				fn,
				args,
				cancelled: false,
				owner: this.context.getStore(),
			};
			this.push(timer);
			return timer;
		}) as unknown as typeof setTimeout;
		globalThis.clearTimeout = ((timer?: Timer) => {
			if (timer) timer.cancelled = true;
		}) as unknown as typeof clearTimeout;
		Date.now = () => this.now;
	}

	uninstall(): void {
		globalThis.setTimeout = this.real.setTimeout;
		globalThis.clearTimeout = this.real.clearTimeout;
		Date.now = this.real.dateNow;
	}

	/**
	 * Runs timers in time order until `done()` holds (checked after promises settle), failing past
	 * `limitMs` (a time on the clock).
	 */
	async run(done: () => boolean, limitMs = 24 * 3600_000): Promise<void> {
		for (;;) {
			await new Promise((resolve) => this.real.setImmediate(resolve));
			if (done()) return;
			const next = this.pop();
			if (!next) throw new Error('nothing left to run, and the simulation is not done');
			if (next.at > limitMs) throw new Error(`the simulation passed ${limitMs} ms`);
			this.now = Math.max(this.now, next.at);
			const stalledUntil =
				next.owner === undefined ? undefined : this.stallOf?.(next.owner, this.now);
			if (stalledUntil !== undefined && stalledUntil > this.now) {
				this.push({ ...next, at: stalledUntil, seq: this.seq++ });
				continue;
			}
			if (next.owner === undefined) next.fn(...next.args);
			else this.context.run(next.owner, () => next.fn(...next.args));
		}
	}

	private before(a: Timer, b: Timer): boolean {
		return a.at < b.at || (a.at === b.at && a.seq < b.seq);
	}

	private push(timer: Timer): void {
		const heap = this.heap;
		heap.push(timer);
		let i = heap.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!this.before(heap[i], heap[parent])) break;
			[heap[i], heap[parent]] = [heap[parent], heap[i]];
			i = parent;
		}
	}

	private pop(): Timer | undefined {
		const heap = this.heap;
		while (heap.length) {
			const top = heap[0];
			const last = heap.pop()!;
			if (heap.length) {
				heap[0] = last;
				let i = 0;
				for (;;) {
					const l = 2 * i + 1;
					const r = l + 1;
					let m = i;
					if (l < heap.length && this.before(heap[l], heap[m])) m = l;
					if (r < heap.length && this.before(heap[r], heap[m])) m = r;
					if (m === i) break;
					[heap[i], heap[m]] = [heap[m], heap[i]];
					i = m;
				}
			}
			if (!top.cancelled) return top;
		}
		return undefined;
	}
}

/** A seeded random number generator (mulberry32), so a simulation can be run again exactly. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
