import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { addLog, ANALYTICS_TYPES } from './seedLogs';

const sandbox = useSandbox();
const org = (value: string) => ({ __rl: true, mode: 'id', value });

function getAuditLogs(parameters: Record<string, unknown>, token = TOKENS.org) {
	return runNode({
		parameters: {
			resource: 'organization',
			operation: 'getAuditLogs',
			organization: org('1'),
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox(), token),
	});
}

/** A record as the sandbox stores it. */
interface LogRecord {
	id: number;
	type: string;
	appId: number | null;
	organizationId: number;
	createdAt: string;
}

function logsOfOrg1(): LogRecord[] {
	return sandbox().state.logs.filter((log: LogRecord) => log.organizationId === 1);
}

describe('Organization → Get Audit Logs', () => {
	it('returns the newest records without analytics types, as the API sends them', async () => {
		const result = await getAuditLogs({ returnAll: false, limit: 5 });
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/logs$/);
		// POST with a JSON body, as the platform's JS API reads audit logs.
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/organizations/1/logs');
		expect(request.query).toEqual({});
		expect(request.body).toEqual({ offset: 0, limit: 5, format: 'json' });
		expect(request.headers['auth-token']).toBe(TOKENS.org);
		const expected = logsOfOrg1()
			.filter((log) => !ANALYTICS_TYPES.includes(log.type))
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
			.slice(0, 5);
		expect(result.json).toEqual(expected);
		expect(result.items.map((item) => item.pairedItem)).toEqual(Array(5).fill({ item: 0 }));
	});

	it('sends the filters: types, app, dates, fields, sort and order', async () => {
		const result = await getAuditLogs({
			returnAll: true,
			filters: {
				eventTypes: 'app.publish, app.create',
				app: { __rl: true, mode: 'id', value: '11' },
				startDate: '2026-01-01T00:00:00Z',
				endDate: '2026-01-03T23:59:59Z',
			},
			options: { fields: 'id,type,appId,createdAt', sort: 'id', order: 'ASC' },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/logs$/);
		expect(request.body).toEqual({
			offset: 0,
			limit: 500,
			type: ['app.publish', 'app.create'],
			appId: 11,
			fields: ['id', 'type', 'appId', 'createdAt'],
			startDate: '2026-01-01T00:00:00.000Z',
			endDate: '2026-01-03T23:59:59.000Z',
			sort: 'id',
			order: 'ASC',
			format: 'json',
		});
		const expected = logsOfOrg1()
			.filter((log) => ['app.publish', 'app.create'].includes(log.type) && log.appId === 11)
			.filter((log) => log.createdAt <= '2026-01-03T23:59:59.000Z')
			.map(({ id, type, appId, createdAt }) => ({ id, type, appId, createdAt }));
		expect(expected.length).toBeGreaterThan(0);
		expect(result.json).toEqual(expected);
	});

	it('adds the analytics types to the listed ones, or asks only for them', async () => {
		const included = await getAuditLogs({
			returnAll: true,
			filters: { eventTypes: 'app.publish', analyticsEvents: 'include' },
		});
		expect(apiRequests(sandbox(), /\/logs$/)[0].body.type).toEqual([
			'app.publish',
			...ANALYTICS_TYPES,
		]);
		const types = new Set(included.json.map((log) => log.type));
		expect(types).toEqual(new Set(['app.publish', ...ANALYTICS_TYPES]));

		const only = await getAuditLogs({ returnAll: true, filters: { analyticsEvents: 'only' } });
		expect(apiRequests(sandbox(), /\/logs$/)[1].body.type).toEqual(ANALYTICS_TYPES);
		expect(only.json.length).toBe(
			logsOfOrg1().filter((l) => ANALYTICS_TYPES.includes(l.type)).length,
		);
	});

	it('refuses to include analytics without named types, before any request', async () => {
		const result = await getAuditLogs({ returnAll: true, filters: { analyticsEvents: 'include' } });
		expect(result.error?.message).toMatch(/needs the other event types named/);
		expect(result.error?.description).toMatch(/Event Types/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(0);
	});

	it('refuses an organization id that is not a number', async () => {
		const result = await getAuditLogs({
			organization: { __rl: true, mode: 'list', value: 'acme' },
			returnAll: true,
		});
		expect(result.error?.message).toMatch(/"acme" is not an id/);
		expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(0);
	});

	it('returns all of more than 500 records by paging with offset', async () => {
		const state = sandbox().state;
		for (let n = 0; n < 1203; n++) {
			addLog(state, {
				type: 'form.submit',
				createdAt: new Date(Date.UTC(2026, 1, 1) + n * 1000).toISOString(),
			});
		}
		const result = await getAuditLogs({ returnAll: true, filters: { eventTypes: 'form.submit' } });
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /\/logs$/);
		expect(requests.map((r) => [r.body.offset, r.body.limit])).toEqual([
			[0, 500],
			[500, 500],
			[1000, 500],
		]);
		expect(result.json).toHaveLength(1203);
		expect(new Set(result.json.map((log) => log.id)).size).toBe(1203);
		expect(String(result.json[0].createdAt) > String(result.json[1202].createdAt)).toBe(true);
	});

	it('stops at the limit across pages', async () => {
		for (let n = 0; n < 700; n++) addLog(sandbox().state, { type: 'form.submit' });
		const result = await getAuditLogs({
			returnAll: false,
			limit: 620,
			filters: { eventTypes: 'form.submit' },
		});
		expect(result.json).toHaveLength(620);
		const requests = apiRequests(sandbox(), /\/logs$/);
		expect(requests.map((r) => [r.body.offset, r.body.limit])).toEqual([
			[0, 500],
			[500, 120],
		]);
	});

	it('writes a CSV file to a binary field, joining pages under one header', async () => {
		for (let n = 0; n < 520; n++) {
			addLog(sandbox().state, {
				type: 'form.submit',
				requestId: n === 3 ? 'line one\nline "two", end' : `r${n}`,
				data: { note: `n${n}` },
				createdAt: new Date(Date.UTC(2026, 1, 1) + n * 1000).toISOString(),
			});
		}
		const result = await getAuditLogs({
			returnAll: true,
			format: 'csv',
			binaryPropertyName: 'report',
			filters: { eventTypes: 'form.submit' },
			options: { fields: 'id,type,requestId,data', order: 'ASC' },
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /\/logs$/);
		expect(requests.map((r) => r.headers.accept)).toEqual(['text/csv', 'text/csv']);
		// One request reads them all; the second one finds nothing after them.
		expect(requests.map((r) => [r.method, r.body.format, r.body.offset, r.body.limit])).toEqual([
			['POST', 'csv', 0, 100_000],
			['POST', 'csv', 520, 100_000],
		]);
		expect(result.json).toEqual([{ organizationId: 1, format: 'csv', records: 520 }]);
		const binary = result.items[0].binary!.report;
		expect(binary.mimeType).toBe('text/csv');
		expect(binary.fileName).toBe('organization-1-audit-logs.csv');
		const csv = Buffer.from(binary.data, 'base64').toString('utf8');
		const lines = csv.split('\r\n');
		expect(lines[0]).toBe('id,type,requestId,data');
		expect(csv.match(/^id,type,requestId,data/gm)).toHaveLength(1);
		expect(csv).toContain(',"line one\nline ""two"", end",');
		const firstId = sandbox().state.logs.find((l: LogRecord) => l.type === 'form.submit').id;
		expect(lines[1]).toBe(`${firstId},form.submit,r0,"{""note"":""n0""}"`);
		expect(lines.at(-2)).toMatch(/,form\.submit,r519,"\{""note"":""n519""\}"$/);
	});

	it('reports an organization the token does not belong to, per item with Continue On Fail', async () => {
		const result = await runNode({
			parameters: {
				resource: 'organization',
				operation: 'getAuditLogs',
				organization: org('2'),
				returnAll: true,
			} as never,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			continueOnFail: true,
		});
		expect(result.status).toBe('success');
		expect(result.json[0].error).toMatch(/organization 2 is not available/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('waits out the audit-log rate limit (30 per 10 s, shrunk here) and completes', async () => {
		for (let n = 0; n < 1100; n++) addLog(sandbox().state, { type: 'form.submit' });
		sandbox().rateLimiter.limits.logs = { limit: 1, windowMs: 150 };
		sandbox().rateLimiter.enabled = true;
		try {
			const result = await getAuditLogs({
				returnAll: true,
				filters: { eventTypes: 'form.submit' },
			});
			expect(result.error).toBeUndefined();
			expect(result.json).toHaveLength(1100);
			const statuses = apiRequests(sandbox(), /\/logs$/).map((r) => r.status);
			expect(statuses).toContain(429);
			expect(statuses.filter((status) => status === 200)).toHaveLength(3);
		} finally {
			sandbox().rateLimiter.enabled = false;
		}
	});
});
