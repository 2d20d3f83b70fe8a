import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };
const byName = (value: string) => ({ __rl: true, mode: 'name', value });

describe('Entry resource: single entries', () => {
	it('Get reads one entry in the entry shape, columns under data', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'get', dataSource: staff, entryId: '201' },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				id: 201,
				dataSourceId: 100,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				data: expect.objectContaining({ Name: 'Bob Stone', Department: 'Engineering' }),
			},
		]);
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources/);
		expect(request).toMatchObject({ method: 'GET', path: '/v1/data-sources/100/data/201' });
		expect(request.headers['auth-token']).toBe(TOKENS.app);
	});

	it('Get by name of an all-digit data source sends ?dsn', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'get',
				dataSource: byName('2024'),
				entryId: '207',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ id: 207, dataSourceId: 102, data: { Quarter: 'Q1' } });
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources/);
		expect(request.path).toBe('/v1/data-sources/2024/data/207');
		expect(request.query).toEqual({ dsn: 'true' });
	});

	it('refuses an entry ID that is not a number before any request', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'get', dataSource: staff, entryId: 'abc' },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toMatch(/Entry ID: "abc" is not an id/);
		expect(result.error?.description).toMatch(/whole number/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('Insert writes the mapped columns and returns the new entry', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: staff,
				columns: { mappingMode: 'defineBelow', value: { Name: 'Fay Lee', Age: 31 } },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request.method).toBe('PUT');
		expect(request.body).toEqual({ Name: 'Fay Lee', Age: 31 });
		expect(result.json).toEqual([
			expect.objectContaining({ dataSourceId: 100, data: { Name: 'Fay Lee', Age: 31 } }),
		]);
		expect(sandbox().state.entries.filter((e: IDataObject) => e.dataSourceId === 100)).toHaveLength(
			6,
		);
	});

	it('Insert maps every input field automatically, "id" included, one entry per item, paired', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: byName('Staff'),
				columns: { mappingMode: 'autoMapInputData', value: null },
			},
			input: [{ json: { Name: 'One' } }, { json: { id: 999, Name: 'Two', Tags: ['x'] } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources\/Staff\/data$/);
		expect(requests.map((r) => r.body)).toEqual([
			{ Name: 'One' },
			{ id: 999, Name: 'Two', Tags: ['x'] },
		]);
		expect(result.items.map((item) => [item.json.data, item.pairedItem])).toEqual([
			[{ Name: 'One' }, { item: 0 }],
			[{ id: 999, Name: 'Two', Tags: ['x'] }, { item: 1 }],
		]);
		expect(result.json[1].id).not.toBe(999);
	});

	/** Entry → Update of entry 200 of Staff, with these parameters. */
	const update200 = (parameters: Record<string, unknown>) =>
		runNode({
			parameters: {
				resource: 'entry',
				operation: 'update',
				dataSource: staff,
				entryId: '200',
				...parameters,
			},
			credentials: sandboxCredential(sandbox()),
		});
	const staffRequests = () => apiRequests(sandbox(), /^\/v1\/data-sources\/100\//);

	it('Update merges by default with the single-entry update, which answers the entry', async () => {
		const result = await update200({
			columns: { mappingMode: 'defineBelow', value: { Age: 35 } },
		});
		expect(result.error).toBeUndefined();
		expect(staffRequests().map((r) => [r.method, r.path, r.body])).toEqual([
			['PUT', '/v1/data-sources/100/data/200', { Age: 35 }],
		]);
		expect(result.json[0]).toMatchObject({ id: 200, data: { Name: 'Alice Martin', Age: 35 } });
	});

	it.each([
		[
			'Merge, Run Update Hooks off: a commit that merges, without hooks',
			{ runHooks: false, columns: { mappingMode: 'defineBelow', value: { Age: 35 } } },
			{ entries: [{ id: 200, data: { Age: 35 } }], extend: true },
			{ Name: 'Alice Martin', Age: 35 },
		],
		[
			'Replace (with hooks): a commit without merging that runs the update hooks',
			{ updateMode: 'replace', columns: { mappingMode: 'defineBelow', value: { Name: 'A.' } } },
			{ entries: [{ id: 200, data: { Name: 'A.' } }], extend: false, runHooks: ['update'] },
			{ Name: 'A.' },
		],
		[
			'Replace, Run Update Hooks off: a commit without merging, without hooks',
			{
				updateMode: 'replace',
				runHooks: false,
				columns: { mappingMode: 'defineBelow', value: { Name: 'A.' } },
			},
			{ entries: [{ id: 200, data: { Name: 'A.' } }], extend: false },
			{ Name: 'A.' },
		],
	])(
		'Update with %s, then reads the entry back',
		async (_label, parameters: IDataObject, sent, stored) => {
			const result = await update200(parameters);
			expect(result.error).toBeUndefined();
			const requests = staffRequests();
			expect(requests.map((r) => [r.method, r.path])).toEqual([
				['POST', '/v1/data-sources/100/commit'],
				['GET', '/v1/data-sources/100/data/200'],
			]);
			expect(requests[0].body).toEqual({ append: true, returnEntries: false, ...sent });
			// Replace removes the columns not given; Merge keeps them.
			expect(result.json[0].data).toEqual(expect.objectContaining(stored));
			const entry = sandbox().state.entries.find((e: IDataObject) => e.id === 200);
			expect(entry.data).toEqual(
				parameters.updateMode === 'replace' ? stored : expect.objectContaining(stored),
			);
		},
	);

	it('the single entry update (PUT …/data/:entryId) merges, as on the platform', async () => {
		const before = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/100/data/200',
			undefined,
			TOKENS.org,
		);
		const answer = await callSandbox(
			sandbox(),
			'PUT',
			'/v1/data-sources/100/data/200',
			{ Age: 36 },
			TOKENS.org,
		);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual({ ...before.body.data, Age: 36 });
		expect(Object.keys(before.body.data).length).toBeGreaterThan(1);
	});

	it('Delete removes the entry and reports it', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'delete', dataSource: staff, entryId: '204' },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ id: 204, deleted: true }]);
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources/);
		expect(request).toMatchObject({ method: 'DELETE', path: '/v1/data-sources/100/data/204' });
		expect(sandbox().state.entries.some((e: IDataObject) => e.id === 204)).toBe(false);
	});
});

describe('Entry resource: input checks and retries', () => {
	it('Insert without any column is refused before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: staff,
				columns: { mappingMode: 'defineBelow', value: null },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('No column values to write');
		expect(result.error?.description).toMatch(/Map Automatically/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('an Insert that failed after reaching the server is not sent again', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 502, method: 'PUT', path: '/data$' });
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: staff,
				columns: { mappingMode: 'defineBelow', value: { Name: 'Once' } },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.httpCode).toBe('502');
		expect(result.error?.description).toMatch(/may already have been processed/);
		expect(apiRequests(sandbox(), /\/data$/)).toHaveLength(1);
	});

	it('an Update without hooks is idempotent, so a 502 is retried', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 502,
			method: 'POST',
			path: '/commit$',
		});
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'update',
				dataSource: staff,
				entryId: '200',
				updateMode: 'replace',
				columns: { mappingMode: 'defineBelow', value: { Name: 'Twice' } },
				runHooks: false,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/commit$/).map((r) => r.status)).toEqual([502, 200]);
		expect(result.json[0].data).toEqual({ Name: 'Twice' });
	});
});
