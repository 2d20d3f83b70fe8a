/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';
import { commitsOf, dataSourceWith, runSync, storedData, storedEntries } from './fixtures';

const sandbox = useSandbox();

describe('Entry → Sync: input checks', () => {
	it('a Sync keyed on a column named "id" stores every row with every column, and reads back the same', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = [
			{ id: 'A1', Name: 'Ann', createdAt: 'yesterday' },
			{ id: 'B2', Name: 'Bob', dataSourceId: 7 },
		];
		const first = await runSync(sandbox(), id, rows, { keyColumns: 'id' });
		expect(first.error).toBeUndefined();
		expect(first.json[0]).toMatchObject({ inserted: 2, skipped: [] });
		expect(storedData(sandbox(), id)).toEqual(rows);

		const again = await runSync(sandbox(), id, [{ id: 'A1', Name: 'Anna' }, rows[1]], {
			keyColumns: 'id',
		});
		expect(again.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ ...rows[0], Name: 'Anna' }, rows[1]]);

		const read = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(read.json.map((entry) => entry.data)).toEqual(storedData(sandbox(), id));
		expect(read.json.map((entry) => entry.id)).toEqual(
			storedEntries(sandbox(), id).map((entry) => entry.id),
		);
	});

	it('keeps an "id" column beside the key: every column is stored', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann' }]);
		const result = await runSync(sandbox(), id, [
			{ id: 4242, Email: 'a@x.io', Name: 'Anna' },
			{ id: 7, Email: 'b@x.io', Name: 'Ben' },
		]);
		expect(result.error).toBeUndefined();
		const bodies = commitsOf(sandbox()).map((request) => request.body.entries);
		// The update sends the cells that changed: the row's own "id" among them.
		expect(bodies[0]).toEqual([{ id: expect.any(Number), data: { id: 4242, Name: 'Anna' } }]);
		expect(bodies[0][0].id).not.toBe(4242);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'a@x.io', Name: 'Anna', id: 4242 },
			{ id: 7, Email: 'b@x.io', Name: 'Ben' },
		]);
		expect(result.json[0]).toMatchObject({ inserted: 1, updated: 1 });
	});

	it('stops with an error naming the key and the columns the rows have when no row can be keyed', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }]);
		const failed = await runSync(sandbox(), id, [{ Mail: 'x@x.io', Name: 'X' }, { Mail: '' }]);
		expect(failed.error?.message).toBe('No input row has a value in the key column "Email"');
		expect(failed.error?.description).toContain('the columns "Mail", "Name"');
		expect(commitsOf(sandbox())).toHaveLength(0);

		const asItem = await runSync(sandbox(), id, [{ Mail: 'x@x.io' }], {}, { continueOnFail: true });
		expect(asItem.items).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					error: 'No input row has a value in the key column "Email"',
				}),
			}),
		]);

		// One keyed row is enough: the others are reported as skipped, as before.
		const partly = await runSync(sandbox(), id, [{ Mail: 'x@x.io' }, { Email: 'b@x.io' }]);
		expect(partly.json[0]).toMatchObject({
			inserted: 1,
			skipped: [{ itemIndex: 0, reason: 'Missing key column "Email"' }],
		});
	});

	it('an update commit that runs hooks is sent once, not retried after a dropped connection: it is found stored', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann' }]);
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		const result = await runSync(
			sandbox(),
			id,
			[{ Email: 'a@x.io', Name: 'Anna' }],
			{ syncOptions: { runHooks: ['update'] } },
			{ continueOnFail: true },
		);
		const commits = commitsOf(sandbox());
		expect(commits).toHaveLength(1);
		expect(commits[0].body).toMatchObject({ runHooks: ['update'] });
		// Its key was read: the update is stored, so nothing is sent again.
		expect(result.json[0]).toMatchObject({
			updated: 1,
			recovered: { commits: 1, rowsFound: 1, rowsResent: 0 },
		});
		expect(result.json[0]).not.toHaveProperty('error');
	});

	it('the same update without hooks is re-sent after a dropped connection', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann' }]);
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '/commit$' });
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Anna' }]);
		expect(result.error).toBeUndefined();
		expect(commitsOf(sandbox())).toHaveLength(2);
		expect(result.json[0]).toMatchObject({ updated: 1 });
	});

	it('with Continue On Fail a refusal of the whole run is one error item paired with every input', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }, { Email: 'b@x.io' }]);
		const result = await runSync(
			sandbox(),
			id,
			[{ Email: 'x@x.io' }, { Email: 'y@x.io' }],
			{ syncMode: 'mirror' },
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			expect.objectContaining({
				json: {
					error: 'Mirror would delete all 2 entries of the data source',
					description: expect.stringContaining('Allow Emptying the Data Source'),
				},
				pairedItem: [{ item: 0 }, { item: 1 }],
			}),
		]);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toHaveLength(2);
	});

	it('with Continue On Fail a row holding __proto__ becomes an error item and the other rows sync', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann' }]);
		const polluted = JSON.parse('{"Email": "p@x.io", "__proto__": {"admin": true}}');
		const result = await runSync(
			sandbox(),
			id,
			[{ Email: 'a@x.io', Name: 'Anna' }, polluted, { Email: 'c@x.io', Name: 'Cy' }],
			{},
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const entries = commitsOf(sandbox()).flatMap((request) => request.body.entries);
		expect(entries.map((entry: any) => entry.data.Name)).toEqual(['Anna', 'Cy']);
		expect(result.items[0].json).toMatchObject({ inserted: 1, updated: 1, skipped: [] });
		expect(result.items.slice(1)).toEqual([
			expect.objectContaining({
				json: {
					error: 'Item 1: the field "__proto__" is never sent',
					description: expect.stringContaining('prototype pollution'),
				},
				pairedItem: { item: 1 },
			}),
		]);
		expect(storedData(sandbox(), id).map((row) => row.Email)).toEqual(['a@x.io', 'c@x.io']);
	});

	it('without Continue On Fail that row stops the run before any request', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }]);
		const polluted = JSON.parse('{"Email": "p@x.io", "__proto__": {"admin": true}}');
		const result = await runSync(sandbox(), id, [{ Email: 'b@x.io' }, polluted]);
		expect(result.error?.message).toBe('Item 1: the field "__proto__" is never sent');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('in mirror mode such a row refuses the whole run even with Continue On Fail (its entry would be deleted)', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }, { Email: 'p@x.io' }]);
		const polluted = JSON.parse('{"Email": "p@x.io", "__proto__": {"admin": true}}');
		const result = await runSync(
			sandbox(),
			id,
			[{ Email: 'a@x.io' }, polluted],
			{ syncMode: 'mirror' },
			{ continueOnFail: true },
		);
		expect(result.items).toEqual([
			expect.objectContaining({
				json: {
					error: 'Item 1: the field "__proto__" is never sent',
					description: expect.stringContaining('Mirror mode needs every row'),
				},
				pairedItem: [{ item: 0 }, { item: 1 }],
			}),
		]);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
		expect(storedData(sandbox(), id)).toHaveLength(2);
	});
});
