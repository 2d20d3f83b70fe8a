/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';
import { commitsOf, dataSourceWith, READ_PATHS, storedEntries, useReadPath } from './fixtures';

const sandbox = useSandbox();

const people = [
	{ Email: 'ann@x.io', Name: 'Ann', Age: 30 },
	{ Email: 'bob@x.io', Name: 'Bob', Age: 40 },
	{ Email: 'ann@x.io', Name: 'Ann (copy)', Age: 30 },
];

/** Entry → Update with Match By: Columns to Match On, of `rows` mapped automatically. */
async function updateByColumns(
	dataSourceId: number,
	rows: IDataObject[],
	{
		parameters = {},
		continueOnFail = false,
	}: { parameters?: IDataObject; continueOnFail?: boolean } = {},
) {
	return await runNode({
		parameters: {
			resource: 'entry',
			operation: 'update',
			matchBy: 'columns',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: ['Email'] },
			...parameters,
		} as any,
		input: rows.map((json) => ({ json })),
		credentials: sandboxCredential(sandbox()),
		continueOnFail,
	});
}

describe.each(READ_PATHS)('Entry → Update by Columns to Match On (the %s read)', (path) => {
	useReadPath(path);

	it('updates every entry holding the values, deletes none, and outputs their ids', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [ann, bob, copy] = storedEntries(sandbox(), id);
		const result = await updateByColumns(id, [
			{ Email: 'ann@x.io', Age: 31 },
			{ Email: 'bob@x.io', Name: 'Robert' },
		]);

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{
				id: ann.id,
				ids: [ann.id, copy.id],
				action: 'update',
				data: { Email: 'ann@x.io', Age: 31 },
			},
			{ id: bob.id, action: 'update', data: { Email: 'bob@x.io', Name: 'Robert' } },
		]);
		expect(storedEntries(sandbox(), id)).toEqual([
			{ id: ann.id, data: { ...people[0], Age: 31 } },
			{ id: bob.id, data: { ...people[1], Name: 'Robert' } },
			{ id: copy.id, data: { ...people[2], Age: 31 } },
		]);
		// The update hooks run by default, as for an update by ID.
		expect(commitsOf(sandbox()).map((commit) => commit.body.runHooks)).toEqual([['update']]);
	});

	it('with Continue On Fail, an item no entry matches is an error item and nothing is created', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const [, bob] = storedEntries(sandbox(), id);
		const result = await updateByColumns(
			id,
			[
				{ Email: 'cy@x.io', Age: 50 },
				{ Email: 'bob@x.io', Age: 41 },
			],
			{ continueOnFail: true },
		);

		expect(result.error).toBeUndefined();
		expect(result.json[0].error).toBe('Item 0: no entry has the key "cy@x.io"');
		expect(result.json[0].description).toMatch(
			/^Update by Columns to Match On never inserts.*use Create or Update/,
		);
		expect(result.json[1]).toEqual({
			id: bob.id,
			action: 'update',
			data: { Email: 'bob@x.io', Age: 41 },
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(storedEntries(sandbox(), id)).toHaveLength(3);

		// A run where no item matches gives each item its error, and creates nothing.
		const none = await updateByColumns(id, [{ Email: 'cy@x.io' }, { Email: 'di@x.io' }], {
			continueOnFail: true,
		});
		expect(none.json.map((json) => json.error)).toEqual([
			'None of the 2 rows has the key of an entry of the data source',
			'None of the 2 rows has the key of an entry of the data source',
		]);
		expect(none.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(storedEntries(sandbox(), id)).toHaveLength(3);
	});

	it('without Continue On Fail, an item no entry matches stops the node and nothing is written', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const before = storedEntries(sandbox(), id);
		const result = await updateByColumns(id, [
			{ Email: 'bob@x.io', Age: 41 },
			{ Email: 'cy@x.io', Age: 50 },
		]);

		expect(result.error?.message).toBe('1 row has a key that no entry of the data source has');
		expect(result.error?.description).toMatch(
			/^Update by Columns to Match On never inserts\. Not found: item 1 \("cy@x.io"\)/,
		);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedEntries(sandbox(), id)).toEqual(before);
	});

	it('applies two items with the same values in input order, and replaces with Replace Entry', async () => {
		const id = await dataSourceWith(sandbox(), people.slice(0, 2));
		const [ann] = storedEntries(sandbox(), id);
		const result = await updateByColumns(
			id,
			[
				{ Email: 'ann@x.io', Name: 'First', Age: 1 },
				{ Email: 'ann@x.io', Name: 'Second' },
			],
			{ parameters: { updateMode: 'replace' } },
		);

		expect(result.json.map((json) => [json.id, json.action])).toEqual([
			[ann.id, 'update'],
			[ann.id, 'update'],
		]);
		// Replaced by the first, then by the second: the second's columns alone.
		expect(storedEntries(sandbox(), id)[0]).toEqual({
			id: ann.id,
			data: { Email: 'ann@x.io', Name: 'Second' },
		});
	});
});

describe('Entry → Update by Columns to Match On: what it refuses', () => {
	it('refuses files (they travel only with the update by Entry ID), before any request', async () => {
		const id = await dataSourceWith(sandbox(), people);
		// The editor shows Files only with Match By: Entry ID; set by an expression, Match By is known
		// only when the item runs (the editor then shows the Entry ID too), and the node refuses there.
		const result = await updateByColumns(id, [{ Email: 'ann@x.io', Age: 31 }], {
			parameters: {
				matchBy: '={{ "columns" }}',
				entryId: '1',
				files: { file: [{ column: 'Photo', binaryPropertyName: 'data' }] },
			},
		});

		expect(result.error?.message).toBe(
			'Files can only be uploaded onto an entry found by its Entry ID',
		);
		expect(result.error?.description).toMatch(/Match By: Entry ID/);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('runs no hook with Run Update Hooks off', async () => {
		const id = await dataSourceWith(sandbox(), people);
		await updateByColumns(id, [{ Email: 'bob@x.io', Age: 41 }], {
			parameters: { runHooks: false },
		});
		expect(commitsOf(sandbox()).map((commit) => commit.body.runHooks)).toEqual([undefined]);
		expect(commitsOf(sandbox())[0].body).toMatchObject({ extend: true });
	});
});
