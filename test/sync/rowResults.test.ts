import type { IDataObject } from 'n8n-workflow';

import { useSandbox, type Sandbox } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	dataSourceWith,
	otherWriterInserts,
	READ_PATHS,
	storedEntries,
	useReadPath,
} from './fixtures';
import { syncRows } from './rowResultsNode';

const sandbox = useSandbox();

/** The id of the entry holding `email` now (the only one: the tests check there is one). */
function idsOf(box: Sandbox, dataSourceId: number, email: string): number[] {
	return storedEntries(box, dataSourceId)
		.filter((entry) => entry.data.Email === email)
		.map((entry) => entry.id);
}

/** Just before the first commit is handled, another writer inserts an entry holding `data`. */
function otherWriterBeforeCommit(box: Sandbox, dataSourceId: number, data: IDataObject) {
	box.beforeHandling({
		path: '/commit$',
		run: (state) => otherWriterInserts(state, dataSourceId, data),
	});
}

describe.each(READ_PATHS)('Sync engine: the per-row results (%s read)', (path) => {
	useReadPath(path);

	it('tell each row what happened and the entry that holds it', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'same@x.io', N: 1 },
			{ Email: 'changed@x.io', N: 1 },
		]);
		const { results, summary, error } = await syncRows(sandbox(), id, [
			{ Email: 'same@x.io', N: 1 },
			{ Email: 'changed@x.io', N: 2 },
			{ Email: 'new@x.io', N: 3 },
			{ N: 4 },
			{ Email: 'twice@x.io', N: 5 },
			{ Email: 'twice@x.io', N: 6 },
		]);

		expect(error).toBeUndefined();
		expect(summary).toMatchObject({ inserted: 1, updated: 1, unchanged: 1 });
		const idOf = (email: string) => idsOf(sandbox(), id, email);
		expect(results).toEqual([
			{ action: 'unchanged', outcome: 'done', ids: idOf('same@x.io') },
			{ action: 'update', outcome: 'done', ids: idOf('changed@x.io') },
			{ action: 'insert', outcome: 'done', ids: idOf('new@x.io') },
			{ action: 'skip', outcome: 'notDone', ids: [], reason: 'Missing key column "Email"' },
			{
				action: 'skip',
				outcome: 'notDone',
				ids: [],
				reason: 'Duplicate key (also in item 5)',
			},
			{
				action: 'skip',
				outcome: 'notDone',
				ids: [],
				reason: 'Duplicate key (also in item 4)',
			},
		]);
		for (const email of ['same@x.io', 'changed@x.io', 'new@x.io'])
			expect(idOf(email)).toHaveLength(1);
	});

	it('name the entry the repair kept when another writer inserted the same key first, and it exists', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		otherWriterBeforeCommit(sandbox(), id, { Email: 'new@x.io', By: 'other' });
		const { results, summary } = await syncRows(sandbox(), id, [
			{ Email: 'new@x.io', By: 'this run' },
			{ Email: 'more@x.io' },
		]);

		expect(summary).toMatchObject({ inserted: 2, duplicatesRemoved: 1 });
		const kept = storedEntries(sandbox(), id).filter((entry) => entry.data.Email === 'new@x.io');
		expect(kept).toEqual([{ id: expect.any(Number), data: { Email: 'new@x.io', By: 'other' } }]);
		expect(results[0]).toEqual({ action: 'insert', outcome: 'done', ids: [kept[0].id] });
		expect(results[1]).toEqual({
			action: 'insert',
			outcome: 'done',
			ids: idsOf(sandbox(), id, 'more@x.io'),
		});
	});

	it("name this run's entry when another writer inserted the same key after it", async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().beforeHandling({
			path: '/data/query$',
			// The check of the keys after the commit: the other writer came in between.
			nth: path === 'targeted' ? 3 : 2,
			run: (state) => otherWriterInserts(state, id, { Email: 'new@x.io', By: 'other' }),
		});
		const { results, summary } = await syncRows(sandbox(), id, [{ Email: 'new@x.io' }]);

		expect(summary).toMatchObject({ inserted: 1, duplicatesRemoved: 1 });
		expect(storedEntries(sandbox(), id)).toEqual([
			{ id: results[0].ids[0], data: { Email: 'new@x.io' } },
		]);
	});

	it('of a key the read found on two entries name the older one, which the repair kept', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', N: 1 },
			{ Email: 'a@x.io', N: 2 },
			{ Email: 'b@x.io', N: 1 },
			{ Email: 'b@x.io', N: 1 },
		]);
		const [a1, , b1] = storedEntries(sandbox(), id);
		const { results, summary } = await syncRows(sandbox(), id, [
			{ Email: 'a@x.io', N: 3 },
			{ Email: 'b@x.io', N: 1 },
		]);

		expect(summary).toMatchObject({ updated: 1, unchanged: 1, duplicatesRemoved: 2 });
		expect(results).toEqual([
			{ action: 'update', outcome: 'done', ids: [a1.id] },
			{ action: 'unchanged', outcome: 'done', ids: [b1.id] },
		]);
		expect(storedEntries(sandbox(), id).map((entry) => entry.id)).toEqual([a1.id, b1.id]);
	});

	it('of a commit whose answer was lost after storing name the entries its read found', async () => {
		const id = await dataSourceWith(sandbox(), []);
		faultNthCommit(sandbox(), 1, { mode: 'drop-after' });
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const { results, summary } = await syncRows(sandbox(), id, rows);

		expect(summary).toMatchObject({ inserted: 2, recovered: { commits: 1, rowsFound: 2 } });
		expect(results).toEqual(
			rows.map((row) => ({
				action: 'insert',
				outcome: 'done',
				ids: idsOf(sandbox(), id, row.Email),
			})),
		);
	});
});

describe('Sync engine: the per-row results of rows not written', () => {
	/** Rows a@x.io (changed) and b@x.io (new), into a data source holding a@x.io. */
	const changedAndNew = [
		{ Email: 'a@x.io', N: 2 },
		{ Email: 'b@x.io', N: 1 },
	];
	async function holdingA() {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', N: 1 }]);
		return { id, a: storedEntries(sandbox(), id)[0] };
	}

	it('a dry run: what would be done, nothing done', async () => {
		const { id, a } = await holdingA();
		const { results } = await syncRows(sandbox(), id, changedAndNew, { dryRun: true });
		expect(results).toEqual([
			{ action: 'update', outcome: 'notDone', ids: [a.id] },
			{ action: 'insert', outcome: 'notDone', ids: [] },
		]);
		expect(storedEntries(sandbox(), id)).toEqual([a]);
	});

	it('Only Update Existing with Continue On Fail: a key no entry has is not found, with its error', async () => {
		const { id, a } = await holdingA();
		const { results } = await syncRows(sandbox(), id, changedAndNew, { mode: 'updateOnly' }, true);
		expect(results).toEqual([
			{ action: 'update', outcome: 'done', ids: [a.id] },
			{
				action: 'notFound',
				outcome: 'notDone',
				ids: [],
				error: 'Item 1: no entry has the key "b@x.io"',
			},
		]);
	});

	it('with Continue On Fail a row holding a field never sent is refused, the others written', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// JSON.parse leaves `__proto__` an own key, as n8n's items from JSON hold it.
		const refused = JSON.parse('{"Email": "b@x.io", "Nested": {"__proto__": {"x": 1}}}');
		const { results } = await syncRows(sandbox(), id, [{ Email: 'a@x.io' }, refused], {}, true);
		expect(results).toEqual([
			{ action: 'insert', outcome: 'done', ids: idsOf(sandbox(), id, 'a@x.io') },
			{
				action: 'refused',
				outcome: 'notDone',
				ids: [],
				error: 'Item 1: the field "Nested.__proto__" is never sent',
			},
		]);
		expect(storedEntries(sandbox(), id)).toHaveLength(1);
	});

	it('a delete flag: the entry it deleted, and a flag whose key no entry holds', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }]);
		const { results, summary } = await syncRows(
			sandbox(),
			id,
			[
				{ Email: 'a@x.io', Gone: true },
				{ Email: 'b@x.io', Gone: 'yes' },
			],
			{ deleteColumn: 'Gone' },
		);
		expect(summary).toMatchObject({ deleted: 1, flaggedAbsent: 1 });
		expect(results).toEqual([
			{ action: 'delete', outcome: 'done', ids: [] },
			{
				action: 'skip',
				outcome: 'notDone',
				ids: [],
				reason: 'Its delete flag is set and no entry holds its key',
			},
		]);
		expect(storedEntries(sandbox(), id)).toEqual([]);
	});

	it('a commit refused: its rows were not written, the summary says where it stopped', async () => {
		const { id, a } = await holdingA();
		faultNthCommit(sandbox(), 2, {
			mode: 'status-before',
			status: 400,
			body: { message: 'Refused' },
		});
		const { results, summary } = await syncRows(sandbox(), id, changedAndNew, {}, true);
		expect(summary).toMatchObject({ updated: 1, inserted: 0, failedCommit: 2 });
		expect(results).toEqual([
			{ action: 'update', outcome: 'done', ids: [a.id] },
			{ action: 'insert', outcome: 'notDone', ids: [] },
		]);
	});
});
