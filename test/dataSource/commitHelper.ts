import type { Sandbox } from '../harness';
import { callSandbox } from '../harness';

/** Adds entries straight through the sandbox's commit endpoint (test set-up, not under test). */
export async function commit(
	sandbox: Sandbox,
	dataSourceId: number,
	entries: object[],
): Promise<void> {
	const response = await callSandbox(sandbox, 'POST', `/v1/data-sources/${dataSourceId}/commit`, {
		entries,
		append: true,
		returnEntries: false,
	});
	if (response.status >= 400) throw new Error(`commit failed: ${response.status}`);
	sandbox.requests.length = 0;
}
