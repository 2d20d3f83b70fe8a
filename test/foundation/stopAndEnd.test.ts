import type { IDataObject, IExecuteFunctions, INodeType } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	arrivalOf,
	flipletTestNodeDescription,
	apiRequests,
	onSandboxRequest,
	registerNodeType,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type SandboxFault,
	type SandboxRequest,
} from '../harness';
import { flipletApiRequest } from '../../nodes/Fliplet/transport';
import { rateWindowFor } from '../../nodes/Fliplet/transport/pacing';
import { dataSourceWith, runSync } from '../sync/fixtures';

const sandbox = useSandbox();

const getManyApps = { resource: 'app', operation: 'getMany', returnAll: true };
const QUERY = /\/data\/query$/;

/**
 * The `failing`-th read fails for good (400 with `message`) once the last of `others` (faults of
 * the reads by their place, 1-based) has arrived: those are on their way when the read fails.
 */
function failWhileOthersAreOnTheWay(
	failing: number,
	message: string,
	others: Record<number, SandboxFault>,
	status = 400,
) {
	const last = Math.max(...Object.keys(others).map(Number));
	const faults: Record<number, SandboxFault> = {
		...others,
		[failing]: {
			mode: 'status-before',
			status,
			body: { message },
			waitFor: arrivalOf(sandbox(), QUERY, last),
		},
	};
	let seen = 0;
	onSandboxRequest(sandbox(), (request) => {
		if (!QUERY.test(request.path)) return;
		const fault = faults[++seen];
		if (fault) sandbox().injectFault({ ...fault, count: 1, path: QUERY.source });
	});
}

/** Each of `onTheWay` was abandoned by the client, and nothing reached the sandbox after them. */
async function expectAbandonedAndNothingMore(onTheWay: SandboxRequest[]) {
	const sentBeforeTheEnd = apiRequests(sandbox()).length;
	await Promise.all(onTheWay.map((request) => request.closed));
	for (const request of onTheWay) expect(request.abandoned).toBe(true);
	expect(apiRequests(sandbox())).toHaveLength(sentBeforeTheEnd);
}

/** Entry → Get Many of every entry of a data source, stopped once `stopWhen` settles. */
const getAllEntries = (id: number, options: IDataObject = {}, stopWhen?: Promise<unknown>) =>
	runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: { __rl: true, mode: 'id', value: String(id) },
			returnAll: true,
			options,
		} as never,
		credentials: sandboxCredential(sandbox()),
		whileRunning: (stop) => void stopWhen?.then(stop),
	});

const rows = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({ Email: `row${n}@x.io`, N: n }));

describe('a stopped execution: the request on its way is aborted, and nothing more leaves', () => {
	it('a stop while the answer is awaited closes the connection before the answer', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, path: '^/v1/apps$' });
		const arrived = arrivalOf(sandbox(), /^\/v1\/apps$/);
		const result = await runNode({
			parameters: getManyApps,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			whileRunning: (stop) => void arrived.then(stop),
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
			while (window.holdEnds < nextValidRequestDate) await sleep(1);
		})();
		const result = await getAllEntries(id, {}, waiting);
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

/** What a caller such as an AI agent passes with its request, to give up on it. */
let callerGivesUp = new AbortController();

/** A node that lists the apps with the caller's own signal, as the Chat Model passes the agent's. */
class CallerWithSignal implements INodeType {
	description = flipletTestNodeDescription(
		'callerWithSignal',
		'Caller With Signal',
		'Lists the apps with its own abort signal',
		'Caller',
	);

	async execute(this: IExecuteFunctions) {
		const answer = (await flipletApiRequest.call(this, {
			method: 'GET',
			path: '/v1/apps',
			abortSignal: callerGivesUp.signal,
		})) as IDataObject;
		return [[{ json: answer }]];
	}
}
registerNodeType('test.callerWithSignal', () => new CallerWithSignal());

describe("the caller's own signal", () => {
	it('aborts the request on its way, though n8n hands the request the execution signal', async () => {
		callerGivesUp = new AbortController();
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, path: '^/v1/apps$' });
		void arrivalOf(sandbox(), /^\/v1\/apps$/).then(() => callerGivesUp.abort());
		const result = await runNode({
			nodeType: 'test.callerWithSignal',
			parameters: {},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe(
			'The request to the Fliplet API was canceled: the execution was stopped, or the caller gave up on it',
		);
		const [request] = apiRequests(sandbox());
		await request.closed;
		expect(request.abandoned).toBe(true);
		expect(apiRequests(sandbox())).toHaveLength(1);
	});
});

describe('after an operation failed, its requests still on their way end', () => {
	it('Get Many: a failed page abandons the pages asked for ahead', async () => {
		const id = await dataSourceWith(sandbox(), rows(60));
		// Page 2 fails for good once page 3, asked for ahead with it, is on its way (and slow).
		failWhileOthersAreOnTheWay(2, 'Bad page', { 3: { mode: 'delay', delayMs: 20_000 } });
		const result = await getAllEntries(id, { pageSize: 10 });
		expect(result.error?.message).toBe('Bad page');
		const ahead = apiRequests(sandbox(), QUERY).slice(2);
		expect(ahead).toHaveLength(1);
		await expectAbandonedAndNothingMore(ahead);
	});

	it('Sync: a read that fails abandons the pages asked for ahead, their retries and their waits', async () => {
		const id = await dataSourceWith(sandbox(), rows(12_000));
		// Sync expects as many entries as rows: it asks for three pages before the first answer.
		// The first fails for good once the others are on their way: one is refused (and would be
		// waited out and sent again), the other slow to answer. A 403, not a 400: a 400 to a read
		// naming columns is asked once more with bare names (see selectNaming).
		failWhileOthersAreOnTheWay(
			1,
			'Bad read',
			{
				2: {
					mode: 'status-before',
					status: 429,
					body: { nextValidRequestDate: new Date(Date.now() + 20_000).toISOString() },
				},
				3: { mode: 'delay', delayMs: 20_000 },
			},
			403,
		);
		const result = await runSync(sandbox(), id, rows(12_000));
		expect(result.error?.message).toBe('Bad read');
		expect(apiRequests(sandbox(), /\/commit$/)).toEqual([]);
		const queries = apiRequests(sandbox(), QUERY);
		expect(queries).toHaveLength(3);
		// The slow page is abandoned; the refused one is not sent again: its wait ended with the run.
		await expectAbandonedAndNothingMore(queries.slice(2));
	}, 60_000);
});
