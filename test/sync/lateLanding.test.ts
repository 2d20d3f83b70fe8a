import type { IDataObject } from 'n8n-workflow';

import { MAY_BE_DOUBLED_NOTE } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { useSandbox, type Sandbox, type SandboxFault } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	commitsOf,
	dataSourceWith,
	duplicateKeys,
	otherWriterInserts,
	runSync,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

const rows = Array.from({ length: 10 }, (_, n) => ({ Email: `late${n}@x.io`, N: n }));
const keys = rows.map((row) => row.Email);

/** The first commit the sandbox receives is held: its answer is lost, it lands later. */
function holdFirstCommit(box: Sandbox, answer: Partial<SandboxFault> = {}) {
	box.injectFault({ mode: 'land-late', method: 'POST', path: '/commit$', ...answer });
}

/**
 * Lands what the sandbox holds just before the handler of the first request to `path` whose body
 * `when` accepts runs (the landing is done before that request is served).
 */
function landBefore(
	box: Sandbox,
	path: string,
	when: (body: { aggregate?: unknown } | undefined) => boolean = () => true,
) {
	const arm = () =>
		box.beforeHandling({
			path,
			run: async (_state, body) => {
				if (when(body)) await box.landHeld();
				else arm();
			},
		});
	arm();
}

/** The entries holding each key, by key. */
function entriesByKey(box: Sandbox, dataSourceId: number): Map<string, number[]> {
	const byKey = new Map<string, number[]>();
	for (const { id, data } of storedEntries(box, dataSourceId)) {
		const key = String(data.Email);
		byKey.set(key, [...(byKey.get(key) ?? []), id]);
	}
	return byKey;
}

const insertItems = (json: IDataObject[]) =>
	json.slice(1).filter((item) => item.action === 'insert');

describe('Entry → Sync: a commit that lands late', () => {
	it('before the re-send: the repair keeps the first landing, every key once, nothing reported', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		holdFirstCommit(sandbox());
		// The re-send arrives once the read after the lost answer found the keys absent.
		let commits = 0;
		landBefore(sandbox(), '/commit$', () => ++commits === 2);
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.error).toBeUndefined();
		const [summary] = result.json;
		expect(summary).toMatchObject({
			inserted: 10,
			duplicatesRemoved: 10,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 10 },
		});
		expect(summary).not.toHaveProperty('mayBeDoubled');
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		const [held] = commitsOf(sandbox());
		expect(held).toMatchObject({ status: 504, landedLate: true, landedStatus: 200 });
		// The late landing came first: its entries (the lower ids) are the ones kept and named.
		const byKey = entriesByKey(sandbox(), id);
		const items = insertItems(result.json);
		expect(items.map((item) => [item.key, item.id])).toEqual(
			keys.map((key) => [key, byKey.get(key)![0]]),
		);
		const repair = commitsOf(sandbox()).at(-1)!;
		expect(Math.min(...repair.body.delete)).toBeGreaterThan(
			Math.max(...items.map((i) => i.id as number)),
		);
	});

	it('between the re-send and the check: the check finds each key twice and keeps one, nothing reported', async () => {
		const id = await dataSourceWith(sandbox(), []);
		holdFirstCommit(sandbox(), { status: 502 });
		landBefore(sandbox(), '/data/query$', (body) => body?.aggregate !== undefined);
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.error).toBeUndefined();
		const [summary] = result.json;
		expect(summary).toMatchObject({ inserted: 10, duplicatesRemoved: 10 });
		expect(summary).not.toHaveProperty('mayBeDoubled');
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(storedEntries(sandbox(), id)).toHaveLength(10);
		const byKey = entriesByKey(sandbox(), id);
		// The re-send landed first this time: its entries are kept, and the row items name them.
		expect(insertItems(result.json).map((item) => [item.key, item.id])).toEqual(
			keys.map((key) => [key, byKey.get(key)![0]]),
		);
	});

	it.each([
		['a gateway timeout (504)', {}],
		['a bad gateway (502)', { status: 502 }],
		['a lost connection', { drop: true }],
	] as Array<[string, Partial<SandboxFault>]>)(
		'after the run (%s): the summary names the keys that may be doubled, and the next run repairs them',
		async (_name, answer) => {
			const id = await dataSourceWith(sandbox(), []);
			holdFirstCommit(sandbox(), answer);
			const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

			expect(result.error).toBeUndefined();
			const [summary] = result.json;
			expect(summary).toMatchObject({ inserted: 10, duplicatesRemoved: 0 });
			const stored = entriesByKey(sandbox(), id);
			expect(summary.mayBeDoubled).toEqual({
				rows: 10,
				keys: keys.map((key) => ({ key, id: stored.get(key)![0] })),
				note: MAY_BE_DOUBLED_NOTE,
			});
			for (const item of insertItems(result.json)) expect(item.mayBeDoubled).toBe(true);

			// The held commit lands after the run: the keys reported are the keys doubled.
			expect(await sandbox().landHeld()).toBe(1);
			expect(duplicateKeys(sandbox(), id).sort()).toEqual([...keys].sort());
			// The entries the run named still exist (every run keeps the lowest id).
			const named = (summary.mayBeDoubled as { keys: Array<{ id: number }> }).keys.map((k) => k.id);
			const after = new Set(storedEntries(sandbox(), id).map((entry) => entry.id));
			for (const entryId of named) expect(after.has(entryId)).toBe(true);

			sandbox().requests.length = 0;
			const rerun = await runSync(sandbox(), id, rows);
			expect(rerun.error).toBeUndefined();
			expect(rerun.json[0]).toMatchObject({ inserted: 0, unchanged: 10, duplicatesRemoved: 10 });
			expect(rerun.json[0]).not.toHaveProperty('mayBeDoubled');
			expect(duplicateKeys(sandbox(), id)).toEqual([]);
			expect(storedEntries(sandbox(), id).map((entry) => entry.id)).toEqual(named);
		},
	);

	it('a lost commit whose keys the read finds stored landed: nothing is reported', async () => {
		const id = await dataSourceWith(sandbox(), []);
		faultNthCommit(sandbox(), 1, { mode: 'status-after', status: 504 });
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 10,
			recovered: { commits: 1, rowsFound: 10, rowsResent: 0 },
		});
		expect(result.json[0]).not.toHaveProperty('mayBeDoubled');
	});

	it('a commit refused before the server took it looks the same to the client: its re-sent keys are reported', async () => {
		const id = await dataSourceWith(sandbox(), []);
		faultNthCommit(sandbox(), 1, { mode: 'status-before', status: 504 });
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 10,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 10 },
			mayBeDoubled: { rows: 10 },
		});
		// Nothing was held: the next run finds each key once and has nothing to repair.
		sandbox().requests.length = 0;
		const rerun = await runSync(sandbox(), id, rows);
		expect(rerun.json[0]).toMatchObject({ unchanged: 10, duplicatesRemoved: 0 });
	});

	it('with another writer inserting one of the keys while the commit is held, every row of that commit is reported (the one the other writer stored too)', async () => {
		const id = await dataSourceWith(sandbox(), []);
		holdFirstCommit(sandbox());
		// Once the commit is held, another writer inserts late0 before the read of its keys.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 2,
			run: (state) => otherWriterInserts(state, id, { Email: 'late0@x.io', N: 0 }),
		});
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		// Every row of the held commit may still get one more entry: late0 (found, another writer's)
		// and the nine sent again.
		expect(result.json[0]).toMatchObject({ inserted: 10, mayBeDoubled: { rows: 10 } });
		await sandbox().landHeld();
		const reported = (result.json[0].mayBeDoubled as { keys: Array<{ key: string }> }).keys.map(
			(entry) => entry.key,
		);
		expect(reported).toEqual(expect.arrayContaining(duplicateKeys(sandbox(), id)));
		expect(duplicateKeys(sandbox(), id)).toHaveLength(10);
	});
});
