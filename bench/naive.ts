/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { spreadsheetRow } from './rows';
import { TOKENS } from '../test/harness';

/**
 * What a generic HTTP Request node does: one Insert (PUT) per row, waiting when rate limited.
 * Returns the wall time in milliseconds.
 */
export async function insertOneByOne(
	sandboxUrl: string,
	dataSourceId: number,
	count: number,
): Promise<number> {
	const started = Date.now();
	for (let i = 0; i < count; i++) {
		for (;;) {
			const response = await fetch(`${sandboxUrl}/v1/data-sources/${dataSourceId}/data`, {
				method: 'PUT',
				headers: { 'Auth-token': TOKENS.app, 'Content-Type': 'application/json' },
				body: JSON.stringify(spreadsheetRow(i)),
			});
			const body = (await response.json()) as { nextValidRequestDate?: string };
			if (response.status !== 429) {
				if (response.status >= 400) throw new Error(`Insert ${i} answered ${response.status}`);
				break;
			}
			const wait = Math.max(10, Date.parse(body.nextValidRequestDate ?? '') - Date.now() || 1000);
			await new Promise((resolve) => setTimeout(resolve, wait));
		}
	}
	return Date.now() - started;
}
