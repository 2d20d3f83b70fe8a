/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';
import { queriesOf, seededDataSource, storedEntries } from './fixtures';

const sandbox = useSandbox();

const ENTRIES = 100_000;
const person = (n: number): IDataObject => ({ Email: `user${n}@x.io`, Name: `User ${n}`, N: n });

/** The column mapper's value as the editor stores it for this data source (types sampled). */
const schema = ['Email', 'Name', 'N'].map((id) => ({
	id,
	displayName: id,
	required: false,
	defaultMatch: false,
	display: true,
	canBeUsedToMatch: true,
	type: id === 'N' ? 'number' : 'string',
}));

async function upsert(dataSourceId: number, rows: IDataObject[]) {
	return await runNode({
		parameters: {
			resource: 'entry',
			operation: 'upsert',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			columns: {
				mappingMode: 'autoMapInputData',
				value: null,
				matchingColumns: ['Email'],
				schema,
			},
		} as any,
		input: rows.map((json) => ({ json })),
		credentials: sandboxCredential(sandbox()),
	});
}

const stored = (id: number, n: number) => storedEntries(sandbox(), id)[n];

describe(`Entry → Create or Update into ${ENTRIES.toLocaleString('en')} entries costs what Sync costs`, () => {
	it('1 changed row: 2 requests (the read of its key, the update)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const result = await upsert(id, [{ ...person(77_777), N: -1 }]);

		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{ id: stored(id, 77_777).id, action: 'update', data: { ...person(77_777), N: -1 } },
		]);
		expect(apiRequests(sandbox())).toHaveLength(2);
	});

	it('1 new row: 4 requests in a process first, 3 once it has run (the read, the insert, the check)', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const first = await upsert(id, [person(ENTRIES)]);
		expect(first.error).toBeUndefined();
		// The read of its key, the look for a key column, the insert, the check.
		expect(apiRequests(sandbox())).toHaveLength(4);
		expect(first.json).toEqual([
			{ id: stored(id, ENTRIES).id, action: 'insert', data: person(ENTRIES) },
		]);

		sandbox().requests.length = 0;
		// As a spreadsheet gives it: the mapper's types make it a number with no look at entries.
		const next = await upsert(id, [{ ...person(ENTRIES + 1), N: String(ENTRIES + 1) }]);
		expect(next.error).toBeUndefined();
		expect(apiRequests(sandbox())).toHaveLength(3);
		expect(queriesOf(sandbox()).map((query) => query.body.limit)).not.toContain(1);
		expect(stored(id, ENTRIES + 1).data).toEqual(person(ENTRIES + 1));
		expect(next.json[0]).toMatchObject({ action: 'insert', data: person(ENTRIES + 1) });
	});

	it('1,000 rows, half of them new: at most 6 requests', async () => {
		const id = await seededDataSource(sandbox(), ENTRIES, person);
		const changed = Array.from({ length: 500 }, (_, n) => ({ ...person(n * 150), N: -n - 1 }));
		const added = Array.from({ length: 500 }, (_, n) => person(ENTRIES + n));
		const result = await upsert(id, [...changed, ...added]);

		expect(result.error).toBeUndefined();
		// The read of the keys, the update commit, the insert commit, the check.
		expect(apiRequests(sandbox()).length).toBeLessThanOrEqual(6);
		expect(apiRequests(sandbox())).toHaveLength(4);
		expect(result.json).toHaveLength(1000);
		expect(result.json[0]).toEqual({ id: stored(id, 0).id, action: 'update', data: changed[0] });
		expect(result.json[999]).toEqual({
			id: stored(id, ENTRIES + 499).id,
			action: 'insert',
			data: added[499],
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 1000 }, (_, item) => ({ item })),
		);
	});
});
