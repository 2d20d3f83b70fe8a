import { apiRequests, useSandbox } from '../harness';
import { commitsOf, dataSourceWith, runSync, storedData } from './fixtures';

const sandbox = useSandbox();

describe('Entry → Sync: input checks', () => {
	it('drops the input items\' entry "id" (not a column), as Insert does', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann' }]);
		const result = await runSync(sandbox(), id, [
			{ id: 4242, Email: 'a@x.io', Name: 'Anna' },
			{ id: 4243, Email: 'b@x.io', Name: 'Ben' },
		]);
		expect(result.error).toBeUndefined();
		const bodies = commitsOf(sandbox()).map((request) => request.body.entries);
		expect(bodies).toEqual([
			[{ id: expect.any(Number), data: { Email: 'a@x.io', Name: 'Anna' } }],
			[{ data: { Email: 'b@x.io', Name: 'Ben' }, clientId: expect.any(String) }],
		]);
		expect(bodies[0][0].id).not.toBe(4242);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'a@x.io', Name: 'Anna' },
			{ Email: 'b@x.io', Name: 'Ben' },
		]);
		expect(result.json[0]).toMatchObject({ inserted: 1, updated: 1 });
	});

	it('an update commit that runs hooks is sent once, not retried after a dropped connection', async () => {
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
		expect(result.json[0]).toMatchObject({ failedCommit: 1, totalCommits: 1 });
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
			[{ Mail: 'x@x.io' }, { Mail: 'y@x.io' }],
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
		expect(entries.map((entry: any) => entry.data.Email)).toEqual(['a@x.io', 'c@x.io']);
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
