import { createHash } from 'crypto';

import { pause, untilAborted } from './abort';

export interface RateLimit {
	limit: number;
	windowMs: number;
}

/** The documented per-user limit of the data-source API: 200 requests in any 10 seconds. */
export const DATA_SOURCE_LIMIT: RateLimit = { limit: 200, windowMs: 10_000 };
/** Email and SMS, single and batch together: 20 requests in any 30 seconds. */
export const COMMUNICATE_LIMIT: RateLimit = { limit: 20, windowMs: 30_000 };
/** An organization's audit logs: 30 requests in any 10 seconds. */
export const AUDIT_LOG_LIMIT: RateLimit = { limit: 30, windowMs: 10_000 };

/** The AI plans of the credential: the Free plan, or any paid one (Public, Private, Enterprise…). */
export type AiPlan = 'free' | 'paid';

/** AI requests a minute by plan, as the platform's AI docs give them (all four operations of an app). */
export const AI_LIMITS: Record<AiPlan, RateLimit> = {
	free: { limit: 10, windowMs: 60_000 },
	paid: { limit: 100, windowMs: 60_000 },
};

/** The credential's plan; a credential saved before the field existed is on the Free plan's pace. */
export function aiPlanOf(credentials: { aiPlan?: unknown }): AiPlan {
	return credentials.aiPlan === 'paid' ? 'paid' : 'free';
}

/**
 * The paced area a path belongs to (one window each), if any. AI is limited per app, whichever
 * token calls (SPEC), so its area names the app and is not the token's own.
 */
function pacedArea(
	path: string,
	plan: AiPlan,
): { name: string; perToken: boolean; limit: RateLimit } | undefined {
	if (/^\/v1\/data-sources(\/|\?|$)/.test(path))
		return { name: 'data', perToken: true, limit: DATA_SOURCE_LIMIT };
	if (/^\/v1\/communicate\//.test(path))
		return { name: 'communicate', perToken: true, limit: COMMUNICATE_LIMIT };
	if (/^\/v1\/organizations\/[^/?]+\/logs(\?|$)/.test(path))
		return { name: 'logs', perToken: true, limit: AUDIT_LOG_LIMIT };
	const ai = /^\/v1\/apps\/([^/?]+)\/ai\//.exec(path);
	return ai ? { name: `ai:${ai[1]}`, perToken: false, limit: AI_LIMITS[plan] } : undefined;
}

/**
 * The requests of this n8n process in the last window, for one host, token and area. A request
 * counts from the moment its answer (or failure) arrived, which is never before the server counted
 * it, so a request sent once the oldest counted one is a full window old is never refused. Requests
 * wait their turn first come, first served.
 */
export class RequestWindow {
	private readonly ended: number[] = [];
	private pending = 0;
	private heldUntil = 0;
	/** Settles when the request queued last has its place (or gave up waiting). */
	private lastInLine: Promise<void> = Promise.resolve();
	private waiting = 0;
	private readonly onRelease = new Set<() => void>();
	/** Requests answered with anything but a refusal (429). */
	served = 0;

	constructor(readonly rate: RateLimit) {}

	/**
	 * Waits until every request queued before this one has its place, then until one more fits in
	 * the window and no refusal holds it, and takes it. An abort of `signal` ends the wait: false.
	 */
	async reserve(signal?: AbortSignal): Promise<boolean> {
		const before = this.lastInLine;
		let leaveLine!: () => void;
		const mine = new Promise<void>((resolve) => (leaveLine = resolve));
		this.lastInLine = before.then(async () => await mine);
		this.waiting++;
		try {
			await untilAborted(before, signal);
			await this.waitForRoom(signal);
			this.pending++;
			return true;
		} catch {
			// Only an abort ends the wait early: the request is not sent.
			return false;
		} finally {
			this.waiting--;
			leaveLine();
		}
	}

	private async waitForRoom(signal?: AbortSignal): Promise<void> {
		for (;;) {
			const now = Date.now();
			while (this.ended.length && this.ended[0] <= now - this.rate.windowMs) this.ended.shift();
			if (now < this.heldUntil) {
				await pause(this.heldUntil - now, signal);
			} else if (this.ended.length + this.pending < this.rate.limit) {
				return;
			} else if (this.ended.length) {
				await pause(this.ended[0] + this.rate.windowMs - now + 1, signal);
			} else {
				// Every place is taken by a request still on its way: its end starts its window.
				await untilAborted(new Promise<void>((resolve) => this.onRelease.add(resolve)), signal);
			}
		}
	}

	release(served: boolean): void {
		this.pending--;
		this.ended.push(Date.now());
		if (served) this.served++;
		for (const wake of this.onRelease) wake();
		this.onRelease.clear();
	}

	/** After a refusal that says when to come back: nobody goes before then. */
	hold(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}

	/** When the hold of the last refusal ends (0: never held). */
	get holdEnds(): number {
		return this.heldUntil;
	}

	/** Whether the window holds nothing that still counts, so it can be forgotten. */
	isIdle(now: number): boolean {
		const last = this.ended[this.ended.length - 1] ?? 0;
		return (
			!this.pending && !this.waiting && now >= this.heldUntil && last <= now - this.rate.windowMs
		);
	}
}

/**
 * One window per API host, token and area in this n8n process, shared by every node, item and
 * execution that uses them: their requests together stay within the documented limit. (Another
 * process, such as another queue-mode worker, has its own: the 429s that sharing brings are waited
 * out.) Nothing here is needed for correctness: a forgotten window only means a request may be
 * refused and waited out.
 */
const windows = new Map<string, RequestWindow>();
const SWEEP_EVERY_MS = 60_000;
let lastSweep = 0;

function sweepIdleWindows(now: number): void {
	if (now - lastSweep < SWEEP_EVERY_MS) return;
	lastSweep = now;
	for (const [key, window] of windows) if (window.isIdle(now)) windows.delete(key);
}

function tokenKey(token: unknown): string {
	// Hashed: the key outlives the request and should not hold the token itself.
	return createHash('sha256')
		.update(String(token ?? '').trim())
		.digest('hex')
		.slice(0, 32);
}

/** The shared window of a request to `path` on `origin` with these credentials, if its area is paced. */
export function rateWindowFor(
	origin: string,
	credentials: { accessToken?: unknown; aiPlan?: unknown },
	path: string,
): RequestWindow | undefined {
	const area = pacedArea(path, aiPlanOf(credentials));
	if (!area) return undefined;
	const { limit, windowMs } = area.limit;
	const who = area.perToken ? tokenKey(credentials.accessToken) : '';
	const key = `${origin} ${who} ${area.name} ${limit}/${windowMs}`;
	const now = Date.now();
	sweepIdleWindows(now);
	let window = windows.get(key);
	if (!window) {
		window = new RequestWindow({ limit, windowMs });
		windows.set(key, window);
	}
	return window;
}

/**
 * Forgets every window, as a restarted n8n would. For tests whose server forgets its own counts
 * between cases.
 */
export function forgetRateWindows(): void {
	windows.clear();
}

/**
 * Sends a request (`send`) within its window, waiting for a free place instead of being refused
 * with 429; without a window it is sent at once. `served` tells an answer the API served from a
 * refusal (429) or a failure. An abort of `signal` ends the wait for a place: then nothing is sent
 * and the result is undefined.
 */
export async function sendPaced<T>(
	window: RequestWindow | undefined,
	send: () => Promise<T>,
	served: (result: T) => boolean = () => true,
	signal?: AbortSignal,
): Promise<T | undefined> {
	if (!window) return await send();
	if (!(await window.reserve(signal))) return undefined;
	let wasServed = false;
	try {
		const result = await send();
		wasServed = served(result);
		return result;
	} finally {
		window.release(wasServed);
	}
}
