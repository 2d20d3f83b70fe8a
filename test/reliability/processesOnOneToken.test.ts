import type { IDataObject } from 'n8n-workflow';

import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import { rateWindowFor } from '../../nodes/Fliplet/transport/pacing';
import { DATA_SOURCE_LIMIT } from '../../nodes/Fliplet/transport/rateLimits';
import { apiRequests, runNode, TOKENS, useSandbox, type SandboxRequest } from '../harness';
import { forwardPort, type PortForward } from '../harness/portForward';
import { longestRefusalRun } from '../harness/refusals';
import { dataSourceWith, storedData } from '../sync/fixtures';

// Two n8n processes on one token, through n8n-core: the node keeps its rate windows per API host,
// token and area in its process, and a second address for the sandbox (a port forward) is another
// origin, so a credential pointed there has windows of its own, as another process would, while
// the sandbox counts both against the one token at the platform's limits.

const sandbox = useSandbox({ rateLimits: true });
let second: PortForward;

beforeAll(async () => {
	second = await forwardPort(sandbox().url);
});
afterAll(async () => {
	await second.close();
});

const ROWS = 150;
const DATA = '/v1/data-sources';

const rows = (prefix: string): IDataObject[] =>
	Array.from({ length: ROWS }, (_, n) => ({ Email: `${prefix}${n}@x.io`, N: n }));

const credentialAt = (baseUrl: string, processes?: number) => ({
	accessToken: TOKENS.app,
	region: 'custom',
	baseUrl,
	...(processes === undefined ? {} : { processes }),
});

/** One process's Sync of ROWS rows, one commit per row, into `dataSourceId`. */
const syncFrom = (baseUrl: string, dataSourceId: number, prefix: string, processes?: number) =>
	runNode({
		parameters: {
			resource: 'entry',
			operation: 'sync',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			keyColumns: 'Email',
			syncOptions: { chunkSize: 1 },
		},
		input: rows(prefix).map((json) => ({ json })),
		credentials: { flipletApi: credentialAt(baseUrl, processes) },
	});

/** Arrivals `limit` places apart are a whole window apart: no window held more than the limit. */
function expectWithinWindow(requests: SandboxRequest[], limit: number, windowMs: number) {
	const arrivals = requests.map((request) => request.at).sort((a, b) => a - b);
	for (let n = limit; n < arrivals.length; n++) {
		expect(arrivals[n] - arrivals[n - limit]).toBeGreaterThanOrEqual(windowMs);
	}
}

/** Two processes' Syncs at once; returns the sandbox's data-source requests. */
async function twoProcesses(processes?: number): Promise<SandboxRequest[]> {
	const ids = [await dataSourceWith(sandbox(), [], 'A'), await dataSourceWith(sandbox(), [], 'B')];
	sandbox().rateLimiter.reset();
	const runs = await Promise.all([
		syncFrom(sandbox().url, ids[0], 'a', processes),
		syncFrom(second.url, ids[1], 'b', processes),
	]);
	for (const run of runs) expect(run.error).toBeUndefined();
	for (const id of ids) expect(storedData(sandbox(), id)).toHaveLength(ROWS);
	return apiRequests(sandbox(), /^\/v1\/data-sources/);
}

/** The allowance each process's data-source window holds now. */
const allowances = (processes?: number) =>
	[sandbox().url, second.url].map(
		(url) => rateWindowFor(url, credentialAt(url, processes), DATA)!.allowance!.value,
	);

describe('two n8n processes on one token', () => {
	it('with the credential set to 2: each keeps to half the limit, and nothing is refused', async () => {
		const requests = await twoProcesses(2);
		expect(requests.length).toBeGreaterThan(2 * ROWS);
		expect(requests.filter((request) => request.status === 429)).toEqual([]);
		expectWithinWindow(requests, DATA_SOURCE_LIMIT.limit, DATA_SOURCE_LIMIT.windowMs);
		// Half each; growth only probes past it slowly, after a few windows without a refusal.
		for (const allowance of allowances(2)) {
			expect(allowance).toBeGreaterThanOrEqual(100);
			expect(allowance).toBeLessThan(110);
		}
	}, 120_000);

	it('with the credential at its default: the first refusals teach each its share; few are refused, none more than twice in a row', async () => {
		const requests = await twoProcesses();
		const refused = requests.filter((request) => request.status === 429).length;
		// Each paced to the whole limit alone, they would be refused about half the time.
		expect(refused).toBeGreaterThan(0);
		expect(refused / requests.length).toBeLessThan(0.1);
		expect(longestRefusalRun(requests)).toBeLessThanOrEqual(2);
		// Both learned they share the token: an even share of two at most, and slow to grow past it.
		for (const allowance of allowances()) expect(allowance).toBeLessThan(110);
	}, 120_000);
});

describe("the credential's count of processes", () => {
	it('is a whole number from 1, and 1 unless set', () => {
		const field = new FlipletApi().properties.find((property) => property.name === 'processes');
		expect(field).toMatchObject({ type: 'number', default: 1 });
		expect(field?.typeOptions).toMatchObject({ minValue: 1, numberPrecision: 0 });
	});
});
