import { sleep } from 'n8n-workflow';

/** The documented per-user limit of the data-source API: 200 requests in any 10 seconds. */
export const DATA_SOURCE_LIMIT = { limit: 200, windowMs: 10_000 };
/** The limit all AI operations of one app share: 10 requests in any 60 seconds. */
export const AI_LIMIT = { limit: 10, windowMs: 60_000 };

/** The paced area a path belongs to (one window each; AI has one per app), if any. */
function pacedArea(path: string): { key: string; limit: number; windowMs: number } | undefined {
	if (/^\/v1\/data-sources(\/|\?|$)/.test(path)) return { key: 'data', ...DATA_SOURCE_LIMIT };
	const ai = /^\/v1\/apps\/([^/?]+)\/ai\//.exec(path);
	return ai ? { key: `ai:${ai[1]}`, ...AI_LIMIT } : undefined;
}

/**
 * The requests one execution sent in the last window. A request counts from the moment its answer
 * (or failure) arrived, which is never before the server counted it, so a request sent once the
 * oldest counted one is a full window old is never refused.
 */
class RequestWindow {
	private readonly ended: number[] = [];
	private pending = 0;
	private heldUntil = 0;
	/** Requests answered with anything but a refusal (429). */
	served = 0;

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {}

	/** Waits until one more request fits in the window and no refusal holds it, and reserves it. */
	async reserve(): Promise<void> {
		for (;;) {
			const now = Date.now();
			while (this.ended.length && this.ended[0] <= now - this.windowMs) this.ended.shift();
			if (now < this.heldUntil) {
				await sleep(this.heldUntil - now);
				continue;
			}
			if (this.ended.length + this.pending < this.limit) break;
			// Requests still under way have no end yet: look again shortly.
			const wait = this.ended.length ? this.ended[0] + this.windowMs - now + 1 : 50;
			await sleep(wait);
		}
		this.pending++;
	}

	release(served: boolean): void {
		this.pending--;
		this.ended.push(Date.now());
		if (served) this.served++;
	}

	hold(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}
}

/**
 * One window per execution context: an execution's requests share it, nothing outlives the
 * execution (queue mode: no state across executions), and a context without data-source
 * requests costs nothing.
 */
const windows = new WeakMap<object, Map<string, RequestWindow>>();

function windowFor(context: object, path: string): RequestWindow | undefined {
	const area = pacedArea(path);
	if (!area) return undefined;
	let areas = windows.get(context);
	if (!areas) windows.set(context, (areas = new Map()));
	let window = areas.get(area.key);
	if (!window) {
		window = new RequestWindow(area.limit, area.windowMs);
		areas.set(area.key, window);
	}
	return window;
}

/**
 * Sends a request (`send`) within the documented rate limit of its API area, waiting for a free
 * place in the window instead of being refused with 429. Other areas are sent at once.
 * `refused` tells a 429 answer from one that was served.
 */
export async function sendPaced<T>(
	context: object,
	path: string,
	send: () => Promise<T>,
	refused: (result: T) => boolean = () => false,
): Promise<T> {
	const window = windowFor(context, path);
	if (!window) return await send();
	await window.reserve();
	let served = false;
	try {
		const result = await send();
		served = !refused(result);
		return result;
	} finally {
		window.release(served);
	}
}

/**
 * After a 429 that says when to come back, the execution's other requests to that area wait until
 * then too: sent earlier, they would only be refused, and would take the place a request already
 * waiting needs.
 */
export function holdPacedArea(context: object, path: string, until: number): void {
	windowFor(context, path)?.hold(until);
}

/** How many of the execution's requests to the path's area were served, if the area is paced. */
export function servedInPacedArea(context: object, path: string): number | undefined {
	return windowFor(context, path)?.served;
}
