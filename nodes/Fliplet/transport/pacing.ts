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

	constructor(
		private readonly limit: number,
		private readonly windowMs: number,
	) {}

	/** Waits until one more request fits in the window, and reserves it. */
	async reserve(): Promise<void> {
		for (;;) {
			const now = Date.now();
			while (this.ended.length && this.ended[0] <= now - this.windowMs) this.ended.shift();
			if (this.ended.length + this.pending < this.limit) break;
			// Requests still under way have no end yet: look again shortly.
			const wait = this.ended.length ? this.ended[0] + this.windowMs - now + 1 : 50;
			await sleep(wait);
		}
		this.pending++;
	}

	release(): void {
		this.pending--;
		this.ended.push(Date.now());
	}
}

/**
 * One window per execution context: an execution's requests share it, nothing outlives the
 * execution (queue mode: no state across executions), and a context without data-source
 * requests costs nothing.
 */
const windows = new WeakMap<object, Map<string, RequestWindow>>();

/**
 * Sends a request (`send`) within the documented rate limit of its API area, waiting for a free
 * place in the window instead of being refused with 429. Other areas are sent at once.
 */
export async function sendPaced<T>(
	context: object,
	path: string,
	send: () => Promise<T>,
): Promise<T> {
	const area = pacedArea(path);
	if (!area) return await send();
	let areas = windows.get(context);
	if (!areas) windows.set(context, (areas = new Map()));
	let window = areas.get(area.key);
	if (!window) {
		window = new RequestWindow(area.limit, area.windowMs);
		areas.set(area.key, window);
	}
	await window.reserve();
	try {
		return await send();
	} finally {
		window.release();
	}
}
