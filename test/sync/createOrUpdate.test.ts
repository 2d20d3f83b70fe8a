/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	commitsOf,
	dataSourceWith,
	failNthCommit,
	READ_PATHS,
	setDataSourceHooks,
	storedEntries,
	useReadPath,
} from './fixtures';

const { hooksSettled } = require('../../sandbox/dataSources/hooks');

const sandbox = useSandbox();

const people = [
	{ Email: 'ann@x.io', Name: 'Ann', Age: 30 },
	{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
];

/** Entry → Create or Update of `rows` (mapped automatically) matched on `match`. */
async function upsert(
	dataSourceId: number,
	rows: IDataObject[],
	{
		match = ['Email'],
		parameters = {},
		continueOnFail = false,
	}: { match?: string[]; parameters?: IDataObject; continueOnFail?: boolean } = {},
) {
	return await runNode({
		parameters: {
			resource: 'entry',
			operation: 'upsert',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: match },
			...parameters,
		} as any,
		input: rows.map((json) => ({ json })),
		credentials: sandboxCredential(sandbox()),
		continueOnFail,
	});
}

const pairs = (result: Awaited<ReturnType<typeof upsert>>) =>
	result.items.map((item) => item.pairedItem);

describe.each(READ_PATHS)('Entry → Create or Update (the %s read)', (path) => {
	useReadPath(path);

	it('updates the entry holding the values to match on, merging, and outputs its id and the columns', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann, bob] = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Email: 'bob@x.io', Age: 41 }]);

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{ id: bob.id, action: 'update', data: { Email: 'bob@x.io', Age: 41 } },
		]);
		expect(storedEntries(sandbox(), id)).toEqual([
			ann,
			{ id: bob.id, data: { Email: 'bob@x.io', Name: 'Bob', Age: 41 } },
		]);
	});

	it('creates an entry when none holds the values, and outputs the new entry id', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await upsert(id, [{ Email: 'cy@x.io', Name: 'Cy', Age: 50 }]);

		expect(result.error).toBeUndefined();
		const stored = storedEntries(sandbox(), id);
		expect(stored).toHaveLength(3);
		expect(stored[2].data).toEqual({ Email: 'cy@x.io', Name: 'Cy', Age: 50 });
		expect(result.json).toEqual([
			{ id: stored[2].id, action: 'insert', data: { Email: 'cy@x.io', Name: 'Cy', Age: 50 } },
		]);
	});

	it('updates every entry holding the values when several do, and deletes none', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Name: 'Ann' },
			{ Email: 'bob@x.io', Name: 'Bob' },
			{ Email: 'ann@x.io', Name: 'Ann (copy)', Note: 'kept' },
		]);
		const before = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Email: 'ann@x.io', Name: 'Anne' }]);

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				id: before[0].id,
				ids: [before[0].id, before[2].id],
				action: 'update',
				data: { Email: 'ann@x.io', Name: 'Anne' },
			},
		]);
		expect(storedEntries(sandbox(), id)).toEqual([
			{ id: before[0].id, data: { Email: 'ann@x.io', Name: 'Anne' } },
			before[1],
			{ id: before[2].id, data: { Email: 'ann@x.io', Name: 'Anne', Note: 'kept' } },
		]);
		// No delete was sent: not in a commit, not by the duplicate repair.
		expect(commitsOf(sandbox()).map((commit) => commit.body.delete ?? [])).toEqual(
			commitsOf(sandbox()).map(() => []),
		);
	});

	it('names every matched entry, those already holding the values too', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'ann@x.io', Name: 'Ann' },
			{ Email: 'ann@x.io', Name: 'Anne' },
		]);
		const [first, second] = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Email: 'ann@x.io', Name: 'Anne' }]);

		expect(result.json).toEqual([
			{
				id: first.id,
				ids: [first.id, second.id],
				action: 'update',
				data: { Email: 'ann@x.io', Name: 'Anne' },
			},
		]);
		expect(commitsOf(sandbox())[0].body.entries).toEqual([
			{ id: first.id, data: { Name: 'Anne' } },
		]);
	});

	it('applies two items with the same values to match on in input order: the last values stand, both output the same id', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann] = storedEntries(sandbox(), id);
		const result = await upsert(id, [
			{ Email: 'ann@x.io', Name: 'First', Age: 31 },
			{ Email: 'new@x.io', Name: 'One' },
			{ Email: 'ann@x.io', Name: 'Second' },
			{ Email: 'new@x.io', Name: 'Two', Age: 1 },
		]);

		expect(result.error).toBeUndefined();
		const stored = storedEntries(sandbox(), id);
		expect(stored).toHaveLength(3);
		expect(stored[0]).toEqual({ id: ann.id, data: { Email: 'ann@x.io', Name: 'Second', Age: 31 } });
		expect(stored[2].data).toEqual({ Email: 'new@x.io', Name: 'Two', Age: 1 });
		expect(result.json.map((json) => [json.id, json.action])).toEqual([
			[ann.id, 'update'],
			[stored[2].id, 'insert'],
			[ann.id, 'update'],
			[stored[2].id, 'insert'],
		]);
		// Each item outputs its own columns.
		expect(result.json.map((json) => json.data)).toEqual([
			{ Email: 'ann@x.io', Name: 'First', Age: 31 },
			{ Email: 'new@x.io', Name: 'One' },
			{ Email: 'ann@x.io', Name: 'Second' },
			{ Email: 'new@x.io', Name: 'Two', Age: 1 },
		]);
		expect(pairs(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	});

	it('replaces the entry data with Update Mode: Replace Entry', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann] = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Email: 'ann@x.io', Age: 31 }], {
			parameters: { options: { updateMode: 'replace' } },
		});

		expect(result.json).toEqual([
			{ id: ann.id, action: 'update', data: { Email: 'ann@x.io', Age: 31 } },
		]);
		expect(storedEntries(sandbox(), id)[0]).toEqual({
			id: ann.id,
			data: { Email: 'ann@x.io', Age: 31 },
		});
	});

	it('matches on several columns, and keeps a column named id among the columns', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ id: 'A1', Region: 'EU', Stock: 1 },
			{ id: 'A1', Region: 'US', Stock: 2 },
		]);
		const [eu, us] = storedEntries(sandbox(), id);
		const result = await upsert(
			id,
			[
				{ id: 'A1', Region: 'US', Stock: 5 },
				{ id: 'B2', Region: 'EU', Stock: 7 },
			],
			{ match: ['id', 'Region'] },
		);

		expect(result.error).toBeUndefined();
		const stored = storedEntries(sandbox(), id);
		expect(stored).toEqual([
			eu,
			{ id: us.id, data: { id: 'A1', Region: 'US', Stock: 5 } },
			{ id: stored[2].id, data: { id: 'B2', Region: 'EU', Stock: 7 } },
		]);
		expect(result.json).toEqual([
			{ id: us.id, action: 'update', data: { id: 'A1', Region: 'US', Stock: 5 } },
			{ id: stored[2].id, action: 'insert', data: { id: 'B2', Region: 'EU', Stock: 7 } },
		]);
	});

	it('matches an object column whatever order its keys come in', async () => {
		const id = await dataSourceWith(sandbox(), [{ Place: { city: 'Rome', zip: '00100' }, N: 1 }]);
		const [rome] = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Place: { zip: '00100', city: 'Rome' }, N: 2 }], {
			match: ['Place'],
		});

		expect(result.json).toEqual([
			{ id: rome.id, action: 'update', data: { Place: { zip: '00100', city: 'Rome' }, N: 2 } },
		]);
		expect(storedEntries(sandbox(), id)).toEqual([
			{ id: rome.id, data: { Place: { city: 'Rome', zip: '00100' }, N: 2 } },
		]);
	});

	it('takes CSV rows: text follows the column types, and a re-run of the same rows changes nothing', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const csv = [
			{ Email: 'ann@x.io', Name: 'Ann', Age: '30' },
			{ Email: 'bob@x.io', Name: 'Bob', Age: '41' },
			{ Email: 'cy@x.io', Name: 'Cy', Age: '007' },
			{ Email: 'di@x.io', Name: 'Di', Age: '25' },
		];
		const first = await upsert(id, csv);
		expect(first.error).toBeUndefined();
		expect(first.json.map((json) => [json.action, json.data])).toEqual([
			['unchanged', { Email: 'ann@x.io', Name: 'Ann', Age: 30 }],
			['update', { Email: 'bob@x.io', Name: 'Bob', Age: 41 }],
			['insert', { Email: 'cy@x.io', Name: 'Cy', Age: '007' }],
			['insert', { Email: 'di@x.io', Name: 'Di', Age: 25 }],
		]);
		expect(storedEntries(sandbox(), id).map((entry) => entry.data.Age)).toEqual([
			30,
			41,
			'007',
			25,
		]);

		sandbox().requests.length = 0;
		const again = await upsert(id, csv);
		expect(again.json.map((json) => json.action)).toEqual([
			'unchanged',
			'unchanged',
			'unchanged',
			'unchanged',
		]);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedEntries(sandbox(), id).map((entry) => entry.data.Age)).toEqual([
			30,
			41,
			'007',
			25,
		]);
	});

	it('outputs "unchanged" for an item the entry already holds, sending no commit', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann] = storedEntries(sandbox(), id);
		const result = await upsert(id, [{ Email: 'ann@x.io', Name: 'Ann' }]);

		expect(result.json).toEqual([
			{ id: ann.id, action: 'unchanged', data: { Email: 'ann@x.io', Name: 'Ann' } },
		]);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});
});

describe('Entry → Create or Update: items it cannot write', () => {
	it('with Continue On Fail, a bad item is an error item paired with it and the others are written', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const rows: IDataObject[] = [
			{ Email: 'ann@x.io', Age: 31 },
			{ Name: 'No email' },
			JSON.parse('{"Email": "bad@x.io", "__proto__": {"admin": true}}'),
			{ Email: 'cy@x.io', Age: 50 },
		];
		const result = await upsert(id, rows, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(pairs(result)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(result.json[0]).toMatchObject({ action: 'update' });
		expect(result.json[1].error).toBe('Item 1 has no value to match on in "Email"');
		expect(result.json[2].error).toBe('Item 2: the field "__proto__" is never sent');
		expect(result.json[3]).toMatchObject({ action: 'insert' });
		expect(storedEntries(sandbox(), id).map((entry) => entry.data)).toEqual([
			{ ...people[0], Age: 31 },
			people[1],
			{ Email: 'cy@x.io', Age: 50 },
		]);
	});

	it('two items with the same values, the second refused: without Continue On Fail nothing is written; with it the first stands', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann] = storedEntries(sandbox(), id);
		const rows: IDataObject[] = [
			{ Email: 'ann@x.io', Age: 31 },
			JSON.parse('{"Email": "ann@x.io", "Age": 99, "__proto__": {"admin": true}}'),
		];
		const stopped = await upsert(id, rows);
		expect(stopped.error?.message).toBe('Item 1: the field "__proto__" is never sent');
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedEntries(sandbox(), id)[0]).toEqual(ann);

		const result = await upsert(id, rows, { continueOnFail: true });
		expect(result.json[0]).toEqual({
			id: ann.id,
			action: 'update',
			data: { Email: 'ann@x.io', Age: 31 },
		});
		expect(result.json[1].error).toBe('Item 1: the field "__proto__" is never sent');
		expect(pairs(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(storedEntries(sandbox(), id)[0].data).toEqual({ ...people[0], Age: 31 });
	});

	it('without Continue On Fail, a bad item stops the node before anything is sent', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await upsert(id, [{ Email: 'cy@x.io', Age: 50 }, { Name: 'No email' }]);

		expect(result.error?.message).toBe('Item 1 has no value to match on in "Email"');
		expect(result.error?.description).toMatch(/Nothing was sent for this item/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('refuses a run with no Columns to Match On picked, before any request', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await upsert(id, [{ Email: 'cy@x.io' }], { match: [] });

		expect(result.error?.message).toBe('No Columns to Match On picked');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('with Continue On Fail, items of a commit that failed are error items; the others are written', async () => {
		const id = await dataSourceWith(sandbox(), people);
		// The update commit goes first and lands; the insert commit is refused.
		failNthCommit(sandbox(), 2, 400);
		const result = await upsert(id, [{ Email: 'ann@x.io', Age: 31 }, { Email: 'cy@x.io' }], {
			continueOnFail: true,
		});

		expect(result.json[0]).toMatchObject({ action: 'update' });
		expect(result.json[1].error).toBe(
			'Item 1 was not written: the run stopped before its commit was sent',
		);
		expect(result.json[1].description).toMatch(/^Sync stopped at commit 2 of 2/);
		expect(pairs(result)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(storedEntries(sandbox(), id)).toHaveLength(2);
	});
});

describe('Entry → Create or Update: a commit whose answer is lost', () => {
	const hookLog = () => (sandbox().state.hookLog ?? []) as Array<Record<string, unknown>>;

	it.each([
		['stored before the connection dropped', { mode: 'drop-after' }, 0],
		['not stored (a 502 before it ran)', { mode: 'status-before', status: 502 }, 1],
	] as const)(
		'updating a key held by two entries, %s: each entry is updated and its hook runs once',
		async (_name, fault, resent) => {
			const id = await dataSourceWith(sandbox(), [
				{ Email: 'ann@x.io', Name: 'Ann' },
				{ Email: 'ann@x.io', Name: 'Ann (copy)' },
			]);
			const hooks = [{ type: 'email', runOn: ['update'], payload: { to: [{ email: 'u@x.io' }] } }];
			await setDataSourceHooks(sandbox(), id, hooks);
			const [first, second] = storedEntries(sandbox(), id);
			faultNthCommit(sandbox(), 1, fault as any);
			const result = await upsert(id, [{ Email: 'ann@x.io', Name: 'Anne' }]);
			await hooksSettled(sandbox().state);

			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([
				{
					id: first.id,
					ids: [first.id, second.id],
					action: 'update',
					data: { Email: 'ann@x.io', Name: 'Anne' },
				},
			]);
			expect(storedEntries(sandbox(), id).map((entry) => entry.data.Name)).toEqual([
				'Anne',
				'Anne',
			]);
			// The lost commit, then (when it was not stored) one commit sending both again.
			expect(commitsOf(sandbox())).toHaveLength(1 + resent);
			if (resent)
				expect(commitsOf(sandbox())[1].body.entries.map((entry: IDataObject) => entry.id)).toEqual([
					first.id,
					second.id,
				]);
			expect(hookLog().map((run) => run.entryId)).toEqual([first.id, second.id]);
		},
	);
});

describe('Entry → Create or Update: an insert that lands late', () => {
	const rows = [
		{ Email: 'ann@x.io', Name: 'Ann' },
		{ Email: 'new@x.io', Name: 'New' },
	];

	it('before the check: the run keeps one entry of the values it created, the entry it read stays', async () => {
		const id = await dataSourceWith(sandbox(), [rows[0]]);
		const [ann] = storedEntries(sandbox(), id);
		// The insert commit is stored late, after its answer (a 504) was lost and the row re-sent.
		sandbox().injectFault({ mode: 'land-late', method: 'POST', path: '/commit$' });
		// It lands just before the check of the keys (the query with an aggregation) is served.
		const landBeforeCheck = () =>
			sandbox().beforeHandling({
				path: '/data/query$',
				run: async (_state: unknown, body: { aggregate?: unknown } | undefined) => {
					if (body?.aggregate !== undefined) await sandbox().landHeld();
					else landBeforeCheck();
				},
			});
		landBeforeCheck();
		const result = await upsert(id, rows);

		expect(result.error).toBeUndefined();
		expect(commitsOf(sandbox())[0]).toMatchObject({ status: 504, landedLate: true });
		const stored = storedEntries(sandbox(), id);
		expect(stored.map((entry) => entry.data)).toEqual(rows);
		expect(stored[0].id).toBe(ann.id);
		expect(result.json).toEqual([
			{ id: ann.id, action: 'unchanged', data: rows[0] },
			{ id: stored[1].id, action: 'insert', data: rows[1] },
		]);
	});

	it('after the run: the item says its values may be on two entries and what to do', async () => {
		const id = await dataSourceWith(sandbox(), [rows[0]]);
		sandbox().injectFault({ mode: 'land-late', method: 'POST', path: '/commit$' });
		const result = await upsert(id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ action: 'unchanged' });
		expect(result.json[0]).not.toHaveProperty('mayBeDoubled');
		expect(result.json[1]).toMatchObject({ action: 'insert', mayBeDoubled: true });
		expect(result.json[1].mayBeDoubledNote).toMatch(/run Sync on them/);
		expect(await sandbox().landHeld()).toBe(1);
		const doubled = storedEntries(sandbox(), id).filter((entry) => entry.data.Email === 'new@x.io');
		expect(doubled).toHaveLength(2);
		expect(doubled.map((entry) => entry.id)).toContain(result.json[1].id);

		// A later Create or Update updates both (it never deletes an entry holding the values).
		const again = await upsert(id, [{ Email: 'new@x.io', Name: 'Newer' }]);
		expect(again.json).toEqual([
			{
				id: doubled[0].id,
				ids: doubled.map((entry) => entry.id),
				action: 'update',
				data: { Email: 'new@x.io', Name: 'Newer' },
			},
		]);
	});
});

describe('Entry → Create or Update runs the data source hooks', () => {
	const hookLog = () => sandbox().state.hookLog as Array<Record<string, unknown>>;

	async function withHooks(rows: IDataObject[] = people) {
		const id = await dataSourceWith(sandbox(), rows);
		const hooks = [
			{ type: 'email', runOn: ['insert'], payload: { to: [{ email: 'a@x.io', type: 'to' }] } },
			{ type: 'email', runOn: ['update'], payload: { to: [{ email: 'u@x.io', type: 'to' }] } },
		];
		await setDataSourceHooks(sandbox(), id, hooks);
		return id;
	}

	it('by default: the insert hooks for new entries, the update hooks for updated ones', async () => {
		const id = await withHooks();
		const result = await upsert(id, [
			{ Email: 'ann@x.io', Age: 31 },
			{ Email: 'cy@x.io', Age: 50 },
			{ Email: 'bob@x.io', Age: 40 },
		]);
		await hooksSettled(sandbox().state);

		expect(result.error).toBeUndefined();
		const [ann, , cy] = storedEntries(sandbox(), id);
		expect(hookLog().map((run) => [run.event, run.entryId])).toEqual([
			['update', ann.id],
			['insert', cy.id],
		]);
		expect(commitsOf(sandbox()).map((commit) => commit.body.runHooks)).toEqual([
			['insert', 'update'],
			['insert', 'update'],
		]);
	});

	it('with Replace Entry, two items for a key two entries hold: each entry replaced once, its hook once', async () => {
		const id = await withHooks([...people, { Email: 'ann@x.io', Name: 'Ann (copy)', Note: 'old' }]);
		const [ann, , copy] = storedEntries(sandbox(), id);
		const result = await upsert(
			id,
			[
				{ Email: 'ann@x.io', Age: 31 },
				{ Email: 'ann@x.io', Name: 'Anne' },
			],
			{ parameters: { options: { updateMode: 'replace' } } },
		);
		await hooksSettled(sandbox().state);

		expect(result.error).toBeUndefined();
		expect(result.json.map((json) => [json.id, json.ids, json.action])).toEqual([
			[ann.id, [ann.id, copy.id], 'update'],
			[ann.id, [ann.id, copy.id], 'update'],
		]);
		// The last item's columns alone, on both entries; Bob untouched.
		expect(storedEntries(sandbox(), id).map((entry) => entry.data)).toEqual([
			{ Email: 'ann@x.io', Name: 'Anne' },
			people[1],
			{ Email: 'ann@x.io', Name: 'Anne' },
		]);
		expect(commitsOf(sandbox())).toHaveLength(1);
		expect(hookLog().map((run) => [run.event, run.entryId])).toEqual([
			['update', ann.id],
			['update', copy.id],
		]);
	});

	it('none with Run Hooks off', async () => {
		const id = await withHooks();
		await upsert(id, [{ Email: 'ann@x.io', Age: 31 }, { Email: 'cy@x.io' }], {
			parameters: { runHooks: false },
		});
		await hooksSettled(sandbox().state);
		expect(hookLog() ?? []).toEqual([]);
		expect(storedEntries(sandbox(), id)).toHaveLength(3);
	});
});
