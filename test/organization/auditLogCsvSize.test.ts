import {
	apiRequests,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
	type SandboxReadings,
} from '../harness';
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

/** Get Audit Logs of the form.submit records, oldest first, with `parameters` on top. */
const getAuditLogs = (parameters: Record<string, unknown>) =>
	runNode({
		parameters: {
			resource: 'organization',
			operation: 'getAuditLogs',
			organization: { __rl: true, mode: 'id', value: '1' },
			returnAll: true,
			filters: { eventTypes: 'form.submit' },
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
	});

const exportCsv = (limit?: number) =>
	getAuditLogs({
		...(limit === undefined ? {} : { returnAll: false, limit }),
		format: 'csv',
		options: { fields: 'id,requestId', order: 'ASC' },
	});

const pages = () =>
	apiRequests(sandbox(), /\/logs$/).map((request) => [request.body.offset, request.body.limit]);
const statuses = () => apiRequests(sandbox(), /\/logs$/).map((request) => request.status);

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

// SPEC gives 500 as the most records a request may ask for; Studio's export asks 100,000. A
// platform may serve more (Studio's reading), serve 500 (capped) or refuse more with a 400.
describe.each([
	{
		auditLogLimit: 'studio',
		// A page of more than 500 (SPEC's cap) ends the export only with one that finds the end.
		asked: [
			[0, 100_000],
			[1200, 100_000],
		],
		statuses: [200, 200],
		limited: [[0, 700]],
	},
	{
		auditLogLimit: 'capped',
		asked: [
			[0, 100_000],
			[500, 100_000],
			[1000, 100_000],
		],
		statuses: [200, 200, 200],
		limited: [
			[0, 700],
			[500, 200],
		],
	},
	{
		auditLogLimit: 'refused',
		asked: [
			[0, 100_000],
			[0, 500],
			[500, 500],
			[1000, 500],
		],
		statuses: [400, 200, 200, 200],
		limited: [
			[0, 700],
			[0, 500],
			[500, 200],
		],
	},
] as Array<
	Pick<SandboxReadings, 'auditLogLimit'> & {
		asked: number[][];
		statuses: number[];
		limited: number[][];
	}
>)(
	'Organization → Get Audit Logs as CSV, the most a request may ask read $auditLogLimit',
	({ auditLogLimit, asked, statuses: answered, limited }) => {
		beforeEach(() => setSandboxReadings(sandbox(), { auditLogLimit }));

		it('exports every one of 1,200 records once, in order', async () => {
			addSubmissions(1200);
			const result = await exportCsv();

			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([{ organizationId: 1, format: 'csv', records: 1200 }]);
			expect(pages()).toEqual(asked);
			expect(statuses()).toEqual(answered);
			const rows = csvRows(result);
			expect(rows[0]).toBe('id,requestId');
			expect(rows.slice(1, -1).map((row) => row.split(',')[1])).toEqual(
				Array.from({ length: 1200 }, (_, n) => `r${n}`),
			);
		});

		it('a Limit of 700 gives 700 records', async () => {
			addSubmissions(1200);
			const result = await exportCsv(700);

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ records: 700 });
			expect(csvRows(result).at(-2)).toMatch(/,r699$/);
			expect(pages()).toEqual(limited);
		});
	},
);

describe('Organization → Get Audit Logs as CSV: a 400 that is not about the page size', () => {
	it('is shown after the page was asked again with 500, and nothing more is asked', async () => {
		addSubmissions(10);
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			count: 2,
			path: '/logs$',
			body: { message: 'Invalid where: unknown column' },
		});
		const result = await exportCsv();

		expect(result.error?.message).toMatch(/Invalid where: unknown column/);
		expect(pages()).toEqual([
			[0, 100_000],
			[0, 500],
		]);
	});

	it("JSON pages ask SPEC's 500, which a platform refusing more takes as they are", async () => {
		setSandboxReadings(sandbox(), { auditLogLimit: 'refused' });
		addSubmissions(600);
		const result = await getAuditLogs({});
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(600);
		expect(pages()).toEqual([
			[0, 500],
			[500, 500],
		]);
	});
});
