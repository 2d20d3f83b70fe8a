import type { Sandbox } from '../harness';
import { TOKENS } from '../harness';

/** Adds entries straight through the sandbox's commit endpoint (test set-up, not under test). */
export async function commit(
	sandbox: Sandbox,
	dataSourceId: number,
	entries: object[],
): Promise<void> {
	const response = await fetch(`${sandbox.url}/v1/data-sources/${dataSourceId}/commit`, {
		method: 'POST',
		headers: { 'Auth-token': TOKENS.app, 'Content-Type': 'application/json' },
		body: JSON.stringify({ entries, append: true, returnEntries: false }),
	});
	if (!response.ok) throw new Error(`commit failed: ${response.status}`);
	sandbox.requests.length = 0;
}
