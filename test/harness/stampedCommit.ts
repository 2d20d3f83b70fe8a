import type { Sandbox } from './sandbox';
import { TOKENS } from './sandbox';
import { onSandboxRequest } from './sandboxEvents';
import { callSandbox } from './sandboxHttp';

/**
 * A commit that stamps its rows when it starts and lands later, as a long database commit does
 * (the sandbox's `stamp-at-start` fault). Resolves once the sandbox has taken it (its time is
 * read); `land()` lets it store its rows and resolves with its answer.
 */
export async function startStampedCommit(
	sandbox: Sandbox,
	dataSourceId: number,
	body: Record<string, unknown>,
	token: string = TOKENS.org,
) {
	let release!: () => void;
	const taken = new Promise<void>((resolve) => {
		const stop = onSandboxRequest(sandbox, (request) => {
			if (request.method !== 'POST' || !request.path.endsWith('/commit')) return;
			stop();
			resolve();
		});
	});
	sandbox.injectFault({
		mode: 'stamp-at-start',
		method: 'POST',
		path: '/commit$',
		waitFor: new Promise<void>((resolve) => (release = resolve)),
	});
	const answer = callSandbox(
		sandbox,
		'POST',
		`/v1/data-sources/${dataSourceId}/commit`,
		body,
		token,
	);
	await taken;
	return {
		land: async () => {
			release();
			return await answer;
		},
	};
}
