/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { callSandbox, TOKENS, useSandbox } from '../harness';

// The sandbox's data source area follows the API contract on its own, whatever the node sends.
const { routes } = require('../../sandbox/routes/dataSources');

const sandbox = useSandbox();

const call = (method: string, path: string, body?: unknown, token: string | null = TOKENS.app) =>
	callSandbox(sandbox(), method, path, body, token);

/**
 * Runs a route handler in-process, to time the sandbox's own work without HTTP or JSON. CPU time,
 * not wall time: tests share the machine's cores with other processes.
 */
function handle(
	method: string,
	path: string,
	params: Record<string, string>,
	body: unknown,
	query = {},
) {
	const route = routes.find(
		(candidate: any) => candidate.method === method && candidate.path === path,
	);
	const state = sandbox().state;
	const started = process.cpuUsage();
	const result = route.handler({
		sandbox: sandbox(),
		state,
		principal: state.tokens.get(TOKENS.app),
		params,
		query,
		body,
	});
	const used = process.cpuUsage(started);
	return { result, ms: (used.user + used.system) / 1000 };
}

describe('Sandbox data source area', () => {
	it('answers without a token only for public data sources', async () => {
		expect((await call('GET', '/v1/data-sources/104', undefined, null)).status).toBe(200);
		const denied = await call('GET', '/v1/data-sources/100', undefined, null);
		expect(denied.status).toBe(401);
		expect(denied.body.error).toBe('not authorised');
	});

	it('security rules: the permitted token passes, others get the datasource.access error', async () => {
		expect(
			(await call('PUT', '/v1/data-sources/103/data', { Secret: 'y' }, TOKENS.otherApp)).status,
		).toBe(200);
		const denied = await call(
			'POST',
			'/v1/data-sources/103/data/query',
			{ type: 'delete' },
			TOKENS.app,
		);
		expect(denied).toEqual({
			status: 400,
			body: {
				message:
					'The security rules for the Data Source "Restricted" do not allow this app to delete data.',
				type: 'datasource.access',
				payload: { dataSourceId: 103 },
			},
		});
		expect((await call('GET', '/v1/data-sources/103', undefined, TOKENS.org)).body.type).toBe(
			'datasource.access',
		);
	});

	it('$iLike, $or with $filters and unknown conditions', async () => {
		const like = await call('POST', '/v1/data-sources/100/data/query', {
			where: { Name: { $iLike: '%STONE' } },
		});
		expect(like.body.entries.map((e: any) => e.id)).toEqual([201]);
		const either = await call('POST', '/v1/data-sources/100/data/query', {
			where: {
				$or: [{ $filters: [{ column: 'Age', condition: '<', value: 25 }] }, { Name: 'Eve Adams' }],
			},
		});
		expect(either.body.entries.map((e: any) => e.id)).toEqual([203, 204]);
		const bad = await call('POST', '/v1/data-sources/100/data/query', {
			where: { $filters: [{ column: 'Age', condition: 'roughly', value: 1 }] },
		});
		expect(bad.status).toBe(400);
	});

	it('commit without append replaces the data source with the sent entries', async () => {
		const response = await call('POST', '/v1/data-sources/100/commit', {
			entries: [{ id: 200, data: { Name: 'Kept' } }, { data: { Name: 'New' } }],
		});
		expect(response.status).toBe(200);
		expect(response.body.entries.map((e: any) => e.data.Name)).toEqual(['Kept', 'New']);
	});

	it('100,000-row commits and paged reads of 100,000 rows take well under a second of sandbox time', () => {
		const entries = Array.from({ length: 100_000 }, (_, n) => ({
			data: { n, name: `row ${n}` },
			clientId: `c${n}`,
		}));
		const insert = handle(
			'POST',
			'/v1/data-sources/:ds/commit',
			{ ds: '102' },
			{ entries, append: true, returnEntries: false },
		);
		expect(insert.result.body.clientIds).toHaveLength(100_000);
		const ids = insert.result.body.clientIds.map((pair: any) => pair.id);
		const updates = ids.map((id: number, n: number) => ({ id, data: { n: -n } }));
		const update = handle(
			'POST',
			'/v1/data-sources/:ds/commit',
			{ ds: '102' },
			{ entries: updates, append: true, extend: true, returnEntries: false },
		);
		let read = 0;
		let readMs = 0;
		for (let offset = 0; offset < 100_002; offset += 10_000) {
			const page = handle(
				'POST',
				'/v1/data-sources/:ds/data/query',
				{ ds: '102' },
				{ limit: 10_000, offset },
			);
			read += page.result.body.entries.length;
			readMs += page.ms;
		}
		expect(read).toBe(100_002);
		const filtered = handle(
			'POST',
			'/v1/data-sources/:ds/data/query',
			{ ds: '102' },
			{ where: { n: { $lte: -99_990 } } },
		);
		expect(filtered.result.body.entries).toHaveLength(10);
		console.log(
			`sandbox CPU time: insert 100k ${insert.ms.toFixed(0)} ms, update 100k ${update.ms.toFixed(0)} ms, ` +
				`read 100k in 11 pages ${readMs.toFixed(0)} ms, filter 100k ${filtered.ms.toFixed(0)} ms`,
		);
		expect(insert.ms).toBeLessThan(1000);
		expect(update.ms).toBeLessThan(1000);
		expect(readMs).toBeLessThan(1000);
	});
});
