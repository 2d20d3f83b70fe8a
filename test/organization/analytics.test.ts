import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();

function getAnalytics(parameters: Record<string, unknown>) {
	return runNode({
		parameters: {
			resource: 'organization',
			operation: 'getAnalytics',
			organization: { __rl: true, mode: 'id', value: '1' },
			startDate: '2026-01-01T00:00:00Z',
			endDate: '2026-01-10T00:00:00Z',
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
	});
}

describe('Organization → Get Analytics', () => {
	it('returns the aggregated analytics as the API gives them', async () => {
		const result = await getAnalytics({ output: 'summary' });
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/analytics$/);
		// POST with a JSON body, as the platform's JS API reads analytics.
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/organizations/1/analytics');
		expect(request.query).toEqual({});
		expect(request.body).toEqual({
			startDate: '2026-01-01T00:00:00.000Z',
			endDate: '2026-01-10T00:00:00.000Z',
		});
		expect(result.json).toHaveLength(1);
		const summary = result.json[0] as {
			appSessions: unknown[];
			stats: IDataObject;
			apps: Array<{ name: string }>;
		};
		expect(Object.keys(summary).sort()).toEqual([
			'appSessions',
			'apps',
			'stats',
			'studioSessions',
			'users',
		]);
		expect(summary.appSessions[0]).toEqual({ day: '2026-01-01', count: expect.any(Number) });
		expect(summary.stats.appsPublished).toEqual({ count: 6, previousPeriodCount: 0 });
		expect(summary.apps.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
	});

	it('outputs one flat item per app for charts', async () => {
		const result = await getAnalytics({ output: 'apps' });
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(2);
		expect(result.json[0]).toEqual(
			expect.objectContaining({
				organizationId: 1,
				id: 10,
				name: 'Staff Directory',
				publishes: 6,
				publishesPreviousPeriod: 0,
			}),
		);
		expect(result.json[0]).not.toHaveProperty('stats');
		expect(typeof result.json[1].sessions).toBe('number');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('outputs one flat item per user', async () => {
		const result = await getAnalytics({ output: 'users' });
		expect(result.json).toEqual([
			expect.objectContaining({
				organizationId: 1,
				id: 1,
				email: 'sandy@example.com',
				appsCreated: 6,
				appPublishes: 6,
			}),
		]);
		expect(result.json[0]).not.toHaveProperty('appsCreatedPreviousPeriod');
	});

	it('leaves the period to the API when no dates are given and refuses unreadable ones', async () => {
		await getAnalytics({ startDate: '', endDate: '', output: 'summary' });
		expect(apiRequests(sandbox(), /\/analytics$/)[0].body).toEqual({});
		const bad = await getAnalytics({ startDate: 'next tuesday', output: 'summary' });
		expect(bad.error?.message).toMatch(/Start Date: "next tuesday" is not a date/);
		const reversed = await getAnalytics({ startDate: '2026-02-01', endDate: '2026-01-01' });
		expect(reversed.error?.message).toMatch(/Start Date .* is after End Date/);
		expect(reversed.error?.description).toMatch(/Swap/);
		expect(apiRequests(sandbox(), /\/analytics$/)).toHaveLength(1);
	});
});
