/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };
const staffEntries = () =>
	sandbox().state.entries.filter((entry: any) => entry.dataSourceId === 100);

describe('Entry → Commit checks', () => {
	it('refuses an entry with an uppercase "ID" before sending (it would be inserted, not updated)', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"id": 200, "data": {"Age": 1}}, {"ID": 201, "data": {"Name": "Changed"}}]',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Entries: item 1 has an unknown key "ID"');
		expect(result.error?.description).toMatch(/only "id" \(lowercase, to update\)/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
		expect(staffEntries()).toHaveLength(5);
	});

	it('refuses columns next to "data" instead of inside it', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"data": {"Name": "A"}, "Email": "a@x.io"}]',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Entries: item 0 has an unknown key "Email"');
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('an update that runs hooks is sent once, not retried after a dropped connection', async () => {
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"id": 201, "data": {"Age": 29}}]',
				options: { extend: true, runHooks: ['update'] },
			},
			credentials: sandboxCredential(sandbox()),
		});
		const commits = apiRequests(sandbox(), /\/commit$/);
		expect(commits).toHaveLength(1);
		expect(commits[0].body).toMatchObject({
			entries: [{ id: 201, data: { Age: 29 } }],
			runHooks: ['update'],
		});
		expect(result.error).toBeDefined();
		expect(sandbox().state.hookRuns).toEqual([
			{ dataSourceId: 100, kind: 'update', entryIds: [201] },
		]);
	});

	it('the same update without hooks is re-sent after a dropped connection', async () => {
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'commit',
				dataSource: staff,
				entries: '[{"id": 201, "data": {"Age": 29}}]',
				options: { extend: true },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/commit$/)).toHaveLength(2);
		expect(staffEntries().find((entry: any) => entry.id === 201).data.Age).toBe(29);
	});
});

describe('Entry → Import', () => {
	it('imports every field of the items as columns, "id" included', async () => {
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'import', dataSource: staff },
			input: [{ json: { id: 200, Name: 'Copy of Alice' } }, { json: { Name: 'Kim' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request.body).toEqual({
			entries: [{ id: 200, Name: 'Copy of Alice' }, { Name: 'Kim' }],
			append: true,
			runHooks: false,
		});
		expect(result.json).toEqual([{ imported: 2, mode: 'append' }]);
		const copy = staffEntries().find((entry: any) => entry.data.Name === 'Copy of Alice');
		expect(copy.data).toEqual({ id: 200, Name: 'Copy of Alice' });
		expect(copy.id).not.toBe(200);
	});

	it('with Continue On Fail an item whose data source is not valid becomes an error item; the rest are imported', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'import',
				dataSource: { __rl: true, mode: 'id', value: '={{ $json.target }}' },
			},
			input: [
				{ json: { target: '100', Name: 'Lea' } },
				{ json: { target: 'staff list', Name: 'Max' } },
				{ json: { target: '100', Name: 'Ned' } },
			],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources\/.*\/data$/);
		expect(requests).toHaveLength(1);
		expect(requests[0].path).toBe('/v1/data-sources/100/data');
		expect(requests[0].body.entries.map((entry: any) => entry.Name)).toEqual(['Lea', 'Ned']);
		expect(result.items).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					json: expect.objectContaining({ error: 'Data source: "staff list" is not an ID' }),
					pairedItem: { item: 1 },
				}),
				expect.objectContaining({
					json: { imported: 2, mode: 'append' },
					pairedItem: [{ item: 0 }, { item: 2 }],
				}),
			]),
		);
		expect(result.items).toHaveLength(2);
	});

	it('without Continue On Fail that item stops the node before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'import',
				dataSource: { __rl: true, mode: 'id', value: '={{ $json.target }}' },
			},
			input: [{ json: { target: '100', Name: 'Lea' } }, { json: { target: 'x', Name: 'Max' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Data source: "x" is not an ID');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});
});

describe('Entry → Delete Many', () => {
	const deleteMany = (continueOnFail = false) =>
		runNode({
			parameters: {
				resource: 'entry',
				operation: 'deleteMany',
				dataSource: staff,
				filters: { conditions: [{ column: 'Department', condition: 'equals', value: 'Sales' }] },
			},
			credentials: sandboxCredential(sandbox()),
			continueOnFail,
		});

	it('reports the deletedCount the API answers', async () => {
		const result = await deleteMany();
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/data\/query$/);
		expect(request.body).toEqual({
			type: 'delete',
			where: { $filters: [{ column: 'Department', condition: '==', value: 'Sales' }] },
		});
		const left = staffEntries().length;
		expect(result.json).toEqual([{ deletedCount: 5 - left }]);
		expect(5 - left).toBeGreaterThan(0);
	});
});
