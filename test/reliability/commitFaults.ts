import type { Sandbox } from '../harness';

export type CommitFault =
	| { mode: 'status-before' | 'status-after'; status: number; count?: number }
	| { mode: 'drop-after' | 'drop-before'; count?: number }
	| { mode: 'delay'; delayMs: number; count?: number };

/**
 * Arms `fault` for the `n`-th commit the sandbox receives (the sandbox records a request before
 * it looks for a fault, so arming on record hits exactly that request). Returns a function that
 * puts the request log back.
 */
export function faultNthCommit(sandbox: Sandbox, n: number, fault: CommitFault): () => void {
	const log = sandbox.requests;
	let seen = 0;
	const push = log.push.bind(log);
	log.push = (...records) => {
		for (const record of records) {
			if (record.method === 'POST' && /\/commit$/.test(record.path) && ++seen === n) {
				sandbox.injectFault({ ...fault, method: 'POST', path: 'commit$' });
			}
		}
		return push(...records);
	};
	return () => {
		delete (log as { push?: unknown }).push;
	};
}
