import {
	AI_POLICY,
	CAREFUL_POLICY,
	STEADY_POLICY,
	processesOf,
	type PacePolicy,
} from './allowance';
import {
	AI_LIMITS,
	aiPlanOf,
	AUDIT_LOG_LIMIT,
	COMMUNICATE_LIMIT,
	DATA_SOURCE_LIMIT,
	type AiPlan,
	type RateLimit,
} from './rateLimits';
import { forgetAiScopes } from './aiScope';
import { RequestWindow } from './requestWindow';
import { tokenKey } from './tokenKey';

export {
	AI_LIMITS,
	aiPlanOf,
	AUDIT_LOG_LIMIT,
	COMMUNICATE_LIMIT,
	DATA_SOURCE_LIMIT,
	RequestWindow,
	type AiPlan,
	type RateLimit,
};

interface PacedArea {
	name: string;
	/** Whose limit it is: the token's, or (AI) the scope the caller found (see aiScope). */
	perToken: boolean;
	limit: RateLimit;
	policy: PacePolicy;
}

/**
 * The paced area a path belongs to (one window each), if any. AI is limited per organization
 * (or per app, SPEC), whichever token calls: its window is the scope's when the caller knows it.
 */
function pacedArea(path: string, plan: AiPlan): PacedArea | undefined {
	if (/^\/v1\/data-sources(\/|\?|$)/.test(path))
		return { name: 'data', perToken: true, limit: DATA_SOURCE_LIMIT, policy: STEADY_POLICY };
	if (/^\/v1\/communicate\//.test(path))
		return {
			name: 'communicate',
			perToken: true,
			limit: COMMUNICATE_LIMIT,
			policy: CAREFUL_POLICY,
		};
	if (/^\/v1\/organizations\/[^/?]+\/logs(\?|$)/.test(path))
		return { name: 'logs', perToken: true, limit: AUDIT_LOG_LIMIT, policy: STEADY_POLICY };
	return aiAppOf(path) !== undefined
		? { name: 'ai', perToken: false, limit: AI_LIMITS[plan], policy: AI_POLICY }
		: undefined;
}

/** The AI app a path calls, if it is an AI path. */
export function aiAppOf(path: string): string | undefined {
	return /^\/v1\/apps\/([^/?]+)\/ai\//.exec(path)?.[1];
}

/**
 * One window per API host, token and area in this n8n process, shared by every node, item and
 * execution that uses them: their requests together stay within the documented limit. Another
 * process on the token (a queue-mode worker, another n8n) has its own: each starts at its share of
 * the limit (the credential's count of processes) and adapts to the others from their refusals
 * (see Allowance). Nothing here is needed for correctness: a forgotten window only means a request
 * may be refused and waited out.
 */
const windows = new Map<string, RequestWindow>();
const SWEEP_EVERY_MS = 60_000;
let lastSweep = 0;

function sweepIdleWindows(now: number): void {
	if (now - lastSweep < SWEEP_EVERY_MS) return;
	lastSweep = now;
	for (const [key, window] of windows) if (window.isIdle(now)) windows.delete(key);
}

/**
 * The shared window of a request to `path` on `origin` with these credentials, if its area is
 * paced. `aiScope` names whose AI limit it is (e.g. the app's organization) when the caller found
 * it; without it an AI window is the token's.
 */
export function rateWindowFor(
	origin: string,
	credentials: { accessToken?: unknown; aiPlan?: unknown; processes?: unknown },
	path: string,
	aiScope?: string,
): RequestWindow | undefined {
	const area = pacedArea(path, aiPlanOf(credentials));
	if (!area) return undefined;
	const { limit, windowMs } = area.limit;
	const who =
		area.perToken || aiScope === undefined ? tokenKey(credentials.accessToken) : `@${aiScope}`;
	const key = `${origin} ${who} ${area.name} ${limit}/${windowMs}`;
	const now = Date.now();
	sweepIdleWindows(now);
	const processes = processesOf(credentials.processes);
	let window = windows.get(key);
	if (!window) {
		window = new RequestWindow(area.limit, { policy: area.policy, processes });
		windows.set(key, window);
	}
	window.allowance?.share(processes);
	return window;
}

/**
 * Forgets every window (and the organizations of AI apps), as a restarted n8n would. For tests
 * whose server forgets its own counts between cases.
 */
export function forgetRateWindows(): void {
	windows.clear();
	forgetAiScopes();
}

/**
 * Sends a request (`send`) within its window, waiting for a free place instead of being refused
 * with 429; without a window it is sent at once. `served` tells an answer the API served from a
 * refusal (429) or a failure. An abort of `signal` ends the wait for a place: then nothing is sent
 * and the result is undefined. `again`: the request was refused before, and goes first.
 * `onWaited`: told how long the request waited for its place, when it waited.
 */
export async function sendPaced<T>(
	window: RequestWindow | undefined,
	send: () => Promise<T>,
	served: (result: T) => boolean = () => true,
	signal?: AbortSignal,
	again = false,
	onWaited?: (ms: number) => void,
): Promise<T | undefined> {
	if (!window) return await send();
	if (!(await window.reserve(signal, again, onWaited))) return undefined;
	let wasServed = false;
	try {
		const result = await send();
		wasServed = served(result);
		return result;
	} finally {
		window.release(wasServed);
	}
}
