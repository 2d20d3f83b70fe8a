/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { performance } from 'node:perf_hooks';

import { SEARCH_LISTS_FRESH_MS } from '../../nodes/Fliplet/methods/listSearch/searchCache';
import {
	apiRequests,
	callSandbox,
	onSandboxRequest,
	runListSearch,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
	type SandboxRequest,
} from '../harness';

const sandbox = useSandbox();

/** Apps the token reaches, the fixture's two included, each with a data source of its own. */
const APPS = 100;
/** What each request of the search takes (the sandbox answers this much later). */
const LATENCY_MS = 100;

/** Adds apps (draft and published ids, as Studio makes them) up to APPS, one data source each. */
async function seedApps(): Promise<void> {
	const base = sandbox().state.apps[0];
	const reached = () => sandbox().state.apps.filter((app: any) => app.organizationId === 1).length;
	for (let n = 1; reached() < APPS; n++) {
		sandbox().state.apps.push({
			...base,
			id: 5000 + 2 * n,
			productionAppId: 5001 + 2 * n,
			name: `Site ${n}`,
			releases: [],
		});
		const answer = await callSandbox(
			sandbox(),
			'POST',
			`/v1/data-sources?appId=${5001 + 2 * n}`,
			{
				name: `Visits ${n}`,
			},
			TOKENS.org,
		);
		expect(answer.status).toBe(201);
	}
	sandbox().requests.length = 0;
}

interface Span {
	request: SandboxRequest;
	start: number;
	end: number;
}

/** When each API request arrived and when its connection closed. */
function recordSpans(): Span[] {
	const spans: Span[] = [];
	onSandboxRequest(sandbox(), (request) => {
		const span = { request, start: performance.now(), end: Number.POSITIVE_INFINITY };
		spans.push(span);
		void request.closed.then(() => {
			span.end = performance.now();
		});
	});
	return spans;
}

/**
 * The round trips on the search's critical path: the longest chain of requests each sent after the
 * one before it had its answer. Requests in flight together count once, whatever the machine's load.
 */
function sequentialRoundTrips(spans: Span[]): number {
	const sorted = [...spans].sort((a, b) => a.start - b.start);
	const depth: number[] = [];
	sorted.forEach((span, index) => {
		const before = sorted
			.slice(0, index)
			.map((earlier, j) => (earlier.end <= span.start ? depth[j] : 0));
		depth[index] = 1 + Math.max(0, ...before);
	});
	return Math.max(0, ...depth);
}

/** The most requests in flight at one moment. */
function maxInFlight(spans: Span[]): number {
	return Math.max(
		0,
		...spans.map((span) => spans.filter((o) => o.start <= span.start && o.end > span.start).length),
	);
}

const search = (filter?: string, token = TOKENS.org) =>
	runListSearch({
		method: 'searchDataSources',
		filter,
		parameters: { resource: 'entry', operation: 'get' },
		credentials: sandboxCredential(sandbox(), token),
		editing: true,
	});

/** Every data source of organization 1, as the picker names them. */
function organizationDataSources(): string[] {
	const { apps, dataSources } = sandbox().state;
	return dataSources
		.filter((ds: any) => ds.organizationId === 1)
		.map((ds: any) => {
			const app = apps.find((a: any) => a.productionAppId === ds.appId);
			return `${ds.name} (${app.name}, ${ds.id})`;
		});
}

describe(`The data source picker over ${APPS} apps, ${LATENCY_MS} ms a request`, () => {
	beforeEach(async () => {
		await seedApps();
		sandbox().injectFault({ mode: 'delay', delayMs: LATENCY_MS, count: 10_000 });
	});

	it('asks for the apps and the token-wide list together: one round trip, under a second', async () => {
		// As in a running n8n, the code is loaded: a search with another token first.
		await search(undefined, TOKENS.otherOrg);
		const spans = recordSpans();
		const started = performance.now();
		const result = await search();
		const elapsed = performance.now() - started;

		expect(result.results.map((r) => r.name).sort()).toEqual(organizationDataSources().sort());
		expect(result.results).toHaveLength(APPS + 3); // Staff Directory has four data sources
		expect(spans.map((s) => s.request.path).sort()).toEqual(['/v1/apps', '/v1/data-sources']);
		const roundTrips = sequentialRoundTrips(spans);
		expect(roundTrips).toBeLessThanOrEqual(3);
		expect(roundTrips).toBe(1);
		// Each request waited LATENCY_MS: the wall time follows the round trips, not the apps.
		expect(elapsed).toBeGreaterThanOrEqual(LATENCY_MS);
		expect(elapsed).toBeLessThan(1000);
	});

	it("where the token-wide list is refused (the contract's reading), lists every app's data sources together, within the pacing", async () => {
		setSandboxReadings(sandbox(), { dataSourceList: 'contextRequired' });
		const spans = recordSpans();
		const result = await search();

		expect(result.results.map((r) => r.name).sort()).toEqual(organizationDataSources().sort());
		const perApp = spans.filter((s) => s.request.query.appId);
		expect(perApp).toHaveLength(APPS);
		expect(spans).toHaveLength(APPS + 2);
		// The apps' lists go out together, as fast as the pacing lets them, never one waiting for
		// the answer of another: sent one by one they would make a chain of APPS + 1 round trips.
		expect(maxInFlight(perApp)).toBeGreaterThan(1);
		expect(sequentialRoundTrips(spans)).toBeLessThan(APPS / 2);
	});
});

describe('The data source picker remembers a search briefly', () => {
	it('reuses the lists for the letters typed after a search, and reads afresh when the list is opened again', async () => {
		const opened = await search();
		expect(apiRequests(sandbox())).toHaveLength(2);

		const typed = await search('dep');
		expect(typed.results).toEqual([{ name: 'Departments (Staff Directory, 101)', value: '101' }]);
		expect(apiRequests(sandbox())).toHaveLength(2);

		// Another writer adds a data source: opening the list again shows it.
		const created = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources?appId=11',
			{ name: 'Deputies' },
			TOKENS.org,
		);
		const reopened = await search();
		expect(
			apiRequests(sandbox(), /^\/v1\/(apps|data-sources)$/).filter((r) => r.method === 'GET'),
		).toHaveLength(4);
		expect(reopened.results.map((r) => r.value)).toEqual([
			...opened.results.map((r) => r.value),
			String(created.body.dataSource.id),
		]);
	});

	it(`reads afresh once the lists are ${SEARCH_LISTS_FRESH_MS / 1000} s old`, async () => {
		await search();
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + SEARCH_LISTS_FRESH_MS + 1);
		try {
			await search('dep');
		} finally {
			clock.mockRestore();
		}
		expect(apiRequests(sandbox())).toHaveLength(4);
	});

	it('keeps the lists of each token apart', async () => {
		await search();
		const other = await search('part', TOKENS.otherOrg);
		expect(other.results).toEqual([{ name: 'Partner Data (Other Org App, 105)', value: '105' }]);
		expect(apiRequests(sandbox())).toHaveLength(4);
	});
});
