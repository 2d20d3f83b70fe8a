import type { Sandbox, SandboxFault, SandboxRequest } from './sandbox';

const registered = new WeakMap<Sandbox, Set<() => void>>();

/**
 * Calls `listener` with each API request the sandbox records, before the request's route runs (so
 * it can change the state the request is about to read, or arm a fault for it). Nothing is
 * patched: the listener is removed by the returned function, after the current test (useSandbox),
 * and by the sandbox's reset and stop.
 */
export function onSandboxRequest(
	sandbox: Sandbox,
	listener: (request: SandboxRequest) => void,
): () => void {
	const unsubscribe = sandbox.onRequest(listener);
	const own = registered.get(sandbox) ?? new Set();
	registered.set(sandbox, own);
	const remove = () => {
		unsubscribe();
		own.delete(remove);
	};
	own.add(remove);
	return remove;
}

/** Removes every listener added through `onSandboxRequest` (useSandbox calls it after each test). */
export function removeSandboxListeners(sandbox: Sandbox): void {
	for (const remove of [...(registered.get(sandbox) ?? [])]) remove();
}

/**
 * The `n`-th API request matching `method` and `path` meets `fault` (armed when that request is
 * recorded, so it hits exactly that one). Returns the function that disarms it early.
 */
export function faultNthRequest(
	sandbox: Sandbox,
	match: { method: string; path: RegExp },
	n: number,
	fault: SandboxFault,
): () => void {
	let seen = 0;
	const remove = onSandboxRequest(sandbox, (request) => {
		if (request.method !== match.method || !match.path.test(request.path)) return;
		if (++seen !== n) return;
		remove();
		sandbox.injectFault({ ...fault, method: match.method, path: match.path.source });
	});
	return remove;
}

/** The `n`-th (1-based) API request matching `path`, when the sandbox records it. */
export function arrivalOf(sandbox: Sandbox, path: RegExp, n = 1): Promise<SandboxRequest> {
	let seen = 0;
	return new Promise((resolve) => {
		const stop = onSandboxRequest(sandbox, (request) => {
			if (!path.test(request.path) || ++seen < n) return;
			stop();
			resolve(request);
		});
	});
}
