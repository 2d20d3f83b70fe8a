/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
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
const staffEntries = () =>
	sandbox().state.entries.filter((entry: any) => entry.dataSourceId === 100);

describe('Entry bulk operations', () => {
	const people = [{ json: { Name: 'Hal' } }, { json: { Name: 'Ida', Age: 30 } }];

	it('Import appends by default: all items in one request, one summary item paired with all', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'import', dataSource: staff },
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			body: { entries: [{ Name: 'Hal' }, { Name: 'Ida', Age: 30 }], append: true, runHooks: false },
		});
		expect(result.items).toEqual([
			expect.objectContaining({
				json: { imported: 2, mode: 'append' },
				pairedItem: [{ item: 0 }, { item: 1 }],
			}),
		]);
		expect(staffEntries()).toHaveLength(7);
		// Fliplet runs a bulk append's insert hooks unless told not to: the default sends false.
		expect(sandbox().state.hookRuns ?? []).toEqual([]);
	});

	it('Import with Run Insert Hooks runs them once per new entry', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'import',
				dataSource: staff,
				options: { runHooks: true },
			},
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request.body).toMatchObject({ append: true, runHooks: true });
		const added = staffEntries().filter((entry: any) => ['Hal', 'Ida'].includes(entry.data.Name));
		expect(sandbox().state.hookRuns).toEqual([
			{ dataSourceId: 100, kind: 'insert', entryIds: added.map((entry: any) => entry.id) },
		]);
	});

	it("the sandbox runs a bulk append's insert hooks by default, as the platform does", async () => {
		const append = (body: object) =>
			callSandbox(sandbox(), 'POST', '/v1/data-sources/100/data', body, TOKENS.org);
		expect((await append({ entries: [{ Name: 'Lou' }], append: true })).status).toBe(200);
		expect(sandbox().state.hookRuns).toHaveLength(1);
		expect(sandbox().state.hookRuns[0]).toMatchObject({ kind: 'insert', dataSourceId: 100 });
		await append({ entries: [{ Name: 'Max' }], append: true, runHooks: false });
		await append({ entries: [{ Name: 'Nat' }], append: 'true', runHooks: 'false' });
		expect(sandbox().state.hookRuns).toHaveLength(1);
		expect((await append({ entries: [], runHooks: 'maybe' })).status).toBe(400);
	});

	it('Import replaces all entries only when "Replace All Entries" is chosen', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'import',
				dataSource: staff,
				importMode: 'replace',
			},
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request.body).toEqual({
			entries: [{ Name: 'Hal' }, { Name: 'Ida', Age: 30 }],
			runHooks: false,
		});
		expect(result.json).toEqual([{ imported: 2, mode: 'replace' }]);
		expect(staffEntries().map((entry: any) => entry.data.Name)).toEqual(['Hal', 'Ida']);
	});

	it('Import failures become one error item paired with every item of the batch (Continue On Fail)', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'import',
				dataSource: { __rl: true, mode: 'name', value: 'Restricted' },
			},
			input: people,
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toMatch(/do not allow this app to insert data/);
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('Empty sends an empty replace and leaves the data source empty', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'empty', dataSource: staff },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request).toMatchObject({ method: 'POST', body: { entries: [] } });
		expect(request.body).not.toHaveProperty('append');
		expect(result.json).toEqual([{ emptied: true, dataSource: '100' }]);
		expect(staffEntries()).toHaveLength(0);
	});

	it('Commit inserts, updates and deletes in one request and maps clientIds', async () => {
		const entries = [
			{ data: { Name: 'Jo' }, clientId: 'row-1' },
			{ id: 201, data: { Age: 29 } },
		];
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: JSON.stringify(entries),
				options: { delete: '203, 204', extend: true, runHooks: ['insert'] },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/commit$/);
		expect(request.body).toEqual({
			entries,
			append: true,
			extend: true,
			returnEntries: false,
			delete: [203, 204],
			runHooks: ['insert'],
		});
		const newId = staffEntries().find((entry: any) => entry.data.Name === 'Jo').id;
		expect(result.json).toEqual([{ clientIds: [{ clientId: 'row-1', id: newId }] }]);
		expect(staffEntries().find((entry: any) => entry.id === 201).data).toMatchObject({
			Name: 'Bob Stone',
			Age: 29,
		});
		expect(staffEntries().map((entry: any) => entry.id)).not.toContain(203);
		expect(sandbox().state.hookRuns).toEqual([
			{ dataSourceId: 100, kind: 'insert', entryIds: [newId] },
		]);
	});

	it('Commit with Return Entries gives back the whole data set', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"id": 200, "data": {"Name": "Alicia"}}]',
				options: { returnEntries: true },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const entries = result.json[0].entries as Array<{ id: number; data: object }>;
		expect(entries).toHaveLength(5);
		expect(entries[0]).toMatchObject({ id: 200, data: { Name: 'Alicia' } });
	});

	it('Commit refuses entries without a data object before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"Name": "flat"}]',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Entries: item 0 has no "data" object');
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('Get Unique Values lists the distinct values of columns, nested ones with a dot', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getUniqueValues',
				dataSource: staff,
				uniqueColumns: 'Department, Address.city',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				Department: ['Sales', 'Engineering', 'Support'],
				'Address.city': ['London', 'Paris', 'Berlin'],
			},
		]);
		const [request] = apiRequests(sandbox(), /indexes/);
		expect(request.path).toBe('/v1/data-sources/100/indexes/Department%2CAddress.city');
	});
});
