/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { callSandbox, TOKENS, useSandbox } from '../harness';

// The sandbox is plain JavaScript so scripts can run it without a build.
const { hooksSettled } = require('../../sandbox/dataSources/hooks');

const sandbox = useSandbox();

describe("The sandbox's routes for the platform's own clients", () => {
	it('GET …/data returns every entry at once, without paging', async () => {
		const entries = Array.from({ length: 1500 }, (_, n) => ({ Name: `Row ${n}`, id: n }));
		const imported = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/101/data',
			{ entries, append: false },
			TOKENS.org,
		);
		expect(imported.status).toBe(200);
		const all = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/data',
			undefined,
			TOKENS.org,
		);
		expect(all.status).toBe(200);
		expect(Object.keys(all.body)).toEqual(['entries']);
		expect(all.body.entries.map((e: any) => e.data)).toEqual(entries);
		expect(Object.keys(all.body.entries[0]).sort()).toEqual([
			'createdAt',
			'data',
			'dataSourceId',
			'id',
			'updatedAt',
		]);
	});

	it('GET …/data follows the same access rules as a query: public without a token, rules per token', async () => {
		const open = await callSandbox(sandbox(), 'GET', '/v1/data-sources/104/data', undefined, null);
		expect(open.status).toBe(200);
		expect(open.body.entries.length).toBeGreaterThan(0);
		const closed = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/101/data',
			undefined,
			null,
		);
		expect(closed.status).toBe(401);
		const refused = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/103/data',
			undefined,
			TOKENS.org,
		);
		expect(refused.status).toBe(400);
		expect(refused.body.type).toBe('datasource.access');
	});

	it('PUT …/data (the agent writing one entry) is the insert call: the data object becomes one entry', async () => {
		const before = (
			await callSandbox(sandbox(), 'GET', '/v1/data-sources/101/data', undefined, TOKENS.org)
		).body.entries;
		const put = await callSandbox(
			sandbox(),
			'PUT',
			'/v1/data-sources/101/data',
			{ Name: 'Agent row', id: 'A-1' },
			TOKENS.org,
		);
		expect(put.status).toBe(200);
		expect(put.body.data).toEqual({ Name: 'Agent row', id: 'A-1' });
		const after = (
			await callSandbox(sandbox(), 'GET', '/v1/data-sources/101/data', undefined, TOKENS.org)
		).body.entries;
		expect(after).toEqual([...before, put.body]);
	});
});

describe('Sandbox data-source hooks', () => {
	let server: http.Server;
	let received: Array<{ headers: http.IncomingHttpHeaders; body: any; url?: string }>;
	let endpoint: string;

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			let raw = '';
			req.on('data', (chunk) => (raw += chunk));
			req.on('end', () => {
				received.push({
					headers: req.headers,
					body: raw ? JSON.parse(raw) : undefined,
					url: req.url,
				});
				res.end('{}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		endpoint = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
	});
	beforeEach(() => {
		received = [];
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	const setHooks = (hooks: unknown) =>
		callSandbox(sandbox(), 'PUT', '/v1/data-sources/101', { hooks }, TOKENS.org);

	it('stores hooks through the data-source update and renders templated values per entry', async () => {
		const hook = {
			type: 'web',
			runOn: ['insert'],
			payload: {
				method: 'POST',
				endpoint,
				headers: { 'X-Name': '{{{Name}}}' },
				body: {
					raw: '{{{Name}}}',
					escaped: '{{ Name }}',
					id: '{{{entry.id}}}',
					ds: '{{dataSource.name}}',
					missing: '{{Nope}}',
					nested: '{{{Address.City}}}',
				},
			},
		};
		const updated = await setHooks([hook]);
		expect(updated.status).toBe(200);
		expect(updated.body.dataSource.hooks).toEqual([hook]);
		expect(
			(await callSandbox(sandbox(), 'GET', '/v1/data-sources/101', undefined, TOKENS.org)).body
				.dataSource.hooks,
		).toEqual([hook]);

		const entry = (
			await callSandbox(
				sandbox(),
				'PUT',
				'/v1/data-sources/101/data',
				{ Name: 'R&D', Address: { City: 'Cork' } },
				TOKENS.org,
			)
		).body;
		await hooksSettled(sandbox().state);
		expect(received).toHaveLength(1);
		expect(received[0].url).toBe('/hook');
		expect(received[0].headers['x-name']).toBe('R&D');
		expect(received[0].body).toEqual({
			raw: 'R&D',
			escaped: 'R&amp;D',
			id: String(entry.id),
			ds: 'Departments',
			missing: '',
			nested: 'Cork',
		});
		expect(sandbox().state.hookCalls).toEqual([
			expect.objectContaining({ event: 'insert', entryId: entry.id, status: 200 }),
		]);
	});

	it('runs a hook only when its conditions match, and never calls a non-loopback address', async () => {
		await setHooks([
			{
				type: 'web',
				runOn: ['insert'],
				conditions: [{ Floor: { $gte: 3 } }],
				payload: { endpoint, body: { Name: '{{{Name}}}' } },
			},
			{
				type: 'web',
				runOn: ['insert'],
				payload: { endpoint: 'http://api.example.com/hook', body: {} },
			},
		]);
		await callSandbox(
			sandbox(),
			'PUT',
			'/v1/data-sources/101/data',
			{ Name: 'Low', Floor: 1 },
			TOKENS.org,
		);
		await callSandbox(
			sandbox(),
			'PUT',
			'/v1/data-sources/101/data',
			{ Name: 'High', Floor: 4 },
			TOKENS.org,
		);
		await hooksSettled(sandbox().state);
		expect(received.map((r) => r.body)).toEqual([{ Name: 'High' }]);
		const refused = sandbox().state.hookCalls.filter((call: any) => call.status === 0);
		expect(refused).toHaveLength(2);
		expect(refused[0].error).toMatch(/loopback/);
	});

	it('refuses a hook list that is not one, and keeps what was stored', async () => {
		await setHooks([{ type: 'web', runOn: ['insert'], payload: { endpoint } }]);
		for (const bad of [
			'x',
			[{ runOn: ['insert'] }],
			[{ type: 'web', runOn: ['insert'] }],
			[{ type: 'web', runOn: 'insert', payload: {} }],
		]) {
			const response = await setHooks(bad);
			expect(response.status).toBe(400);
		}
		expect(sandbox().state.dataSources.find((ds: any) => ds.id === 101).hooks).toEqual([
			{ type: 'web', runOn: ['insert'], payload: { endpoint } },
		]);
	});

	it('a bulk import with runHooks false and a commit without runHooks run no hook; a commit with runHooks runs them per entry', async () => {
		await setHooks([
			{
				type: 'web',
				runOn: ['insert', 'update'],
				payload: { endpoint, body: { id: '{{{entry.id}}}', event: '{{event}}' } },
			},
		]);
		await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/101/data',
			{ entries: [{ Name: 'Bulk' }], append: true, runHooks: false },
			TOKENS.org,
		);
		const commit = (runHooks?: string[]) =>
			callSandbox(
				sandbox(),
				'POST',
				'/v1/data-sources/101/commit',
				{
					append: true,
					entries: [{ data: { Name: 'C1' } }, { data: { Name: 'C2' } }],
					...(runHooks ? { runHooks } : {}),
				},
				TOKENS.org,
			);
		await commit();
		await hooksSettled(sandbox().state);
		expect(received).toHaveLength(0);
		const committed = await commit(['insert']);
		await hooksSettled(sandbox().state);
		const ids = committed.body.entries.slice(-2).map((e: any) => String(e.id));
		expect(received.map((r) => r.body)).toEqual(ids.map((id: string) => ({ id, event: 'insert' })));
	});

	it('a bulk append runs the insert hooks of every new entry by default, as on the platform', async () => {
		await setHooks([
			{
				type: 'web',
				runOn: ['insert'],
				payload: { endpoint, body: { name: '{{{Name}}}', event: '{{event}}' } },
			},
		]);
		const bulk = (body: object) =>
			callSandbox(sandbox(), 'POST', '/v1/data-sources/101/data', body, TOKENS.org);
		await bulk({ entries: [{ Name: 'One' }, { Name: 'Two' }], append: true });
		await hooksSettled(sandbox().state);
		expect(received.map((r) => r.body)).toEqual([
			{ name: 'One', event: 'insert' },
			{ name: 'Two', event: 'insert' },
		]);
		// A replace runs them only when asked.
		await bulk({ entries: [{ Name: 'Three' }] });
		await hooksSettled(sandbox().state);
		expect(received).toHaveLength(2);
		await bulk({ entries: [{ Name: 'Four' }], runHooks: true });
		await hooksSettled(sandbox().state);
		expect(received.map((r) => r.body.name)).toEqual(['One', 'Two', 'Four']);
	});
});
