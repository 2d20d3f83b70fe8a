import { faultNthRequest, type Sandbox } from '../harness';

export type CommitFault =
	| {
			mode: 'status-before' | 'status-after';
			status: number;
			count?: number;
			body?: unknown;
			waitFor?: Promise<unknown>;
	  }
	| { mode: 'drop-after' | 'drop-before'; count?: number }
	| { mode: 'delay'; delayMs: number; count?: number };

/**
 * Arms `fault` for the `n`-th commit the sandbox receives. Returns the function that disarms it
 * (the harness also does after the test).
 */
export function faultNthCommit(sandbox: Sandbox, n: number, fault: CommitFault): () => void {
	return faultNthRequest(sandbox, { method: 'POST', path: /\/commit$/ }, n, fault);
}
