import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	onSandboxRequest,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type SandboxFault,
	type SandboxRequest,
} from '../harness';
import { rateWindowFor } from '../../nodes/Fliplet/transport/pacing';
import { dataSourceWith, runSync } from '../sync/fixtures';

const sandbox = useSandbox();

const getManyApps = { resource: 'app', operation: 'getMany', returnAll: true };
const QUERY = /\/data\/query$/;

/** The n-th (1-based) API request matching `path`, when it arrives. */
function arrivalOf(path: RegExp, n = 1): Promise<SandboxRequest> {
	let seen = 0;
	return new Promise((resolve) => {
		const stop = onSandboxRequest(sandbox(), (request) => {
			if (!path.test(request.path) || ++seen < n) return;
			stop();
			resolve(request);
		});
	});
}

/** The n-th (1-based) request matching `path` meets the fault given for it, as it arrives. */
function faultsInOrder(path: RegExp, faults: Record<number, SandboxFault>) {
	let seen = 0;
	onSandboxRequest(sandbox(), (request) => {
		if (!path.test(request.path)) return;
		const fault = faults[++seen];
		if (fault) sandbox().injectFault({ ...fault, count: 1, path: path.source });
	});
}

const rows = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({ Email: `row${n}@x.io`, N: n }));

describe('a stopped execution: the request on its way is aborted, and nothing more leaves', () => {
	it('a stop while the answer is awaited closes the connection before the answer', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, path: '^/v1/apps$' });
		const arrived = arrivalOf(/^\/v1\/apps$/);
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			stopWhen: arrived,
		});
		expect(result.status).toBe('canceled');
		// The node itself ended at once, saying why.
		expect(result.error?.message).toBe(
			'The request to the Fliplet API was canceled: the execution was stopped, or the caller gave up on it',
		);
		const [request] = apiRequests(sandbox());
		await request.closed;
		expect(request.abandoned).toBe(true);
		expect(request.status).toBeUndefined();
		expect(apiRequests(sandbox())).toHaveLength(1);
	});

	it('a stop while waiting out a 429 ends the wait: the node ends at once, long before the time named', async () => {
		const id = await dataSourceWith(sandbox(), rows(3));
		const nextValidRequestDate = Date.now() + 50_000;
		sandbox().injectFault({
			mode: 'status-before',
			status: 429,
			body: {
				message: 'Too many requests, please slow down.',
				nextValidRequestDate: new Date(nextValidRequestDate).toISOString(),
			},
			path: QUERY.source,
		});
		// Stopped once the node waits as the refusal asked: it then holds the token's window.
		const window = rateWindowFor(
			new URL(sandbox().url).origin,
			{ accessToken: TOKENS.app },
			`/v1/data-sources/${id}/data/query`,
		)!;
		const waiting = (async () => {
			while (window.holdEnds < nextValidRequestDate) await new Promise((go) => setImmediate(go));
		})();
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				returnAll: true,
			} as never,
			credentials: sandboxCredential(sandbox()),
			stopWhen: waiting,
		});
		expect(result.status).toBe('canceled');
		// The node itself ended its wait at once (n8n's run ends on a stop whatever its nodes do).
		expect(result.error?.message).toMatch(/^The request to the Fliplet API was canceled/);
		expect(result.error?.description).toBe(
			'It was not sent again. The first attempt met: HTTP 429: Too many requests, please slow down.',
		);
		expect(Date.now()).toBeLessThan(nextValidRequestDate);
		expect(apiRequests(sandbox()).map((request) => request.status)).toEqual([429]);
	});
});

describe('after an operation failed, its requests still on their way end', () => {
	it('Get Many: a failed page abandons the pages asked for ahead', async () => {
		const id = await dataSourceWith(sandbox(), rows(60));
		// Page 2 fails for good once page 3, asked for ahead with it, is on its way (and slow).
		faultsInOrder(QUERY, {
			2: {
				mode: 'status-before',
				status: 400,
				body: { message: 'Bad page' },
				waitFor: arrivalOf(QUERY, 3),
			},
			3: { mode: 'delay', delayMs: 20_000 },
		});
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				returnAll: true,
				options: { pageSize: 10 },
			} as never,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Bad page');
		const sentBeforeTheEnd = apiRequests(sandbox()).length;
		const ahead = apiRequests(sandbox(), QUERY).slice(2);
		expect(ahead).toHaveLength(1);
		await Promise.all(ahead.map((request) => request.closed));
		for (const request of ahead) expect(request.abandoned).toBe(true);
		expect(apiRequests(sandbox())).toHaveLength(sentBeforeTheEnd);
	});

	it('Sync: a read that fails abandons the pages asked for ahead, their retries and their waits', async () => {
		const id = await dataSourceWith(sandbox(), rows(12_000));
		// Sync expects as many entries as rows: it asks for three pages before the first answer.
		// The first fails for good once the others are on their way: one is refused (and would be
		// waited out and sent again), the other slow to answer.
		faultsInOrder(QUERY, {
			1: {
				mode: 'status-before',
				status: 400,
				body: { message: 'Bad read' },
				waitFor: arrivalOf(QUERY, 3),
			},
			2: {
				mode: 'status-before',
				status: 429,
				body: { nextValidRequestDate: new Date(Date.now() + 20_000).toISOString() },
			},
			3: { mode: 'delay', delayMs: 20_000 },
		});
		const result = await runSync(sandbox(), id, rows(12_000));
		expect(result.error?.message).toBe('Bad read');
		const sentBeforeTheEnd = apiRequests(sandbox()).length;
		const queries = apiRequests(sandbox(), QUERY);
		expect(queries).toHaveLength(3);
		await Promise.all(queries.map((request) => request.closed));
		expect(queries[2].abandoned).toBe(true);
		expect(apiRequests(sandbox(), /\/commit$/)).toEqual([]);
		// The refused page is not sent again: its wait ended with the run.
		expect(apiRequests(sandbox())).toHaveLength(sentBeforeTheEnd);
	}, 60_000);
});
