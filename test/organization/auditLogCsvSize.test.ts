import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { addLog } from './seedLogs';

const sandbox = useSandbox();

/** `count` audit records of type form.submit, one a second from 1 Feb 2026. */
function addSubmissions(count: number): void {
	const start = Date.UTC(2026, 1, 1);
	for (let n = 0; n < count; n++) {
		addLog(sandbox().state, {
			type: 'form.submit',
			requestId: `r${n}`,
			createdAt: new Date(start + n * 1000).toISOString(),
		});
	}
}

const exportCsv = () =>
	runNode({
		parameters: {
			resource: 'organization',
			operation: 'getAuditLogs',
			organization: { __rl: true, mode: 'id', value: '1' },
			returnAll: true,
			format: 'csv',
			filters: { eventTypes: 'form.submit' },
			options: { fields: 'id,requestId', order: 'ASC' },
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
	});

const pages = () =>
	apiRequests(sandbox(), /\/logs$/).map((request) => [request.body.offset, request.body.limit]);

const csvRows = (result: Awaited<ReturnType<typeof exportCsv>>) =>
	Buffer.from(result.items[0].binary!.data.data, 'base64').toString('utf8').split('\r\n');

// Fliplet Studio's "Export to CSV" asks for 100,000 rows in one request
// (Fliplet/fliplet-widget-audit-log: src/components/LogTable.vue); SPEC's 500 is for JSON pages.
describe('Organization → Get Audit Logs as CSV: pages as large as Studio asks for', () => {
	it('exports 100,500 records in two pages of up to 100,000 (and one that finds the end)', async () => {
		addSubmissions(100_500);
		const result = await exportCsv();

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ organizationId: 1, format: 'csv', records: 100_500 }]);
		expect(pages()).toEqual([
			[0, 100_000],
			[100_000, 100_000],
			[100_500, 100_000],
		]);
		const rows = csvRows(result);
		expect(rows[0]).toBe('id,requestId');
		expect(rows[1]).toMatch(/,r0$/);
		expect(rows.at(-2)).toMatch(/,r100499$/);
	});

	it('asks on after a page of 500, so a platform capping CSV pages at 500 loses nothing', async () => {
		addSubmissions(700);
		// The first page answered as a platform with SPEC's cap would: 500 rows only.
		const capped = ['id,requestId', ...Array.from({ length: 500 }, (_, n) => `${n + 1},r${n}`)];
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			method: 'POST',
			path: '/logs$',
			headers: { 'Content-Type': 'text/csv; charset=utf-8' },
			body: Buffer.from(`${capped.join('\r\n')}\r\n`),
		});
		const result = await exportCsv();

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ records: 700 });
		expect(pages()).toEqual([
			[0, 100_000],
			[500, 100_000],
		]);
		expect(csvRows(result).at(-2)).toMatch(/,r699$/);
	});
});
