/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { readSizes } from '../../nodes/Fliplet/actions/entry/sync/readSizes';
import { faultNthRequest, useSandbox, type Sandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	failNthCommit,
	queriesOf,
	runSync,
	storedData,
	storedEntries,
	useReadPath,
} from './fixtures';

// The sandbox's store, to act as another writer inside the sandbox between two requests.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();

/** Just before Sync's first commit is handled, another run inserts entries holding `rows`. */
function otherWriterInsertsDuringCommit(box: Sandbox, dataSourceId: number, rows: IDataObject[]) {
	box.beforeHandling({
		path: '/commit$',
		run: (state) => {
			const dataSource = state.dataSources.find((ds: any) => ds.id === dataSourceId);
			store.appendEntries(
				state,
				dataSourceId,
				rows.map((data) => store.newEntry(state, dataSource, data)),
			);
		},
	});
}

/** The check of the new keys: the query that carries an aggregate. */
const checksOf = (box: Sandbox) => queriesOf(box).filter((query) => query.body.aggregate);

describe('Entry → Sync: the duplicate check after inserting', () => {
	// These count the requests of a run that reads every entry (see the targeted read below).
	useReadPath('full');

	it('filters on the key cells as trimmed text (a number also as itself), objects as their JSON, and groups by the key column', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		const rows = [
			{ Email: '  Pad@x.io  ', N: 1 },
			{ Email: { first: 'a' }, N: 2 },
			{ Email: 5, N: 3 },
		];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		// The read, one insert commit, one check: no duplicate, so nothing more.
		expect(result.json[0]).toMatchObject({ inserted: 3, duplicatesRemoved: 0, requests: 3 });
		const [check] = checksOf(sandbox());
		expect(check.body.where).toEqual({
			$filters: [
				{ column: 'Email', condition: 'oneof', value: ['Pad@x.io', '{"first":"a"}', '5', 5] },
			],
		});
		expect(check.body.aggregate).toEqual([
			{ $group: { _id: '$data.Email', n: { $sum: 1 } } },
			{ $group: { _id: '$n', keys: { $sum: 1 } } },
		]);
		expect(queriesOf(sandbox())).toHaveLength(2);
	});

	it('with several key columns groups by all of them, and keys sharing one column are not duplicates', async () => {
		const id = await dataSourceWith(sandbox(), [{ A: 'z', B: 'z' }]);
		const rows = [
			{ A: 'a', B: 'x' },
			{ A: 'a', B: 'y' },
			{ A: 'b', B: 'x' },
		];
		const result = await runSync(sandbox(), id, rows, { keyColumns: 'A, B' });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 3, duplicatesRemoved: 0, requests: 3 });
		const checks = checksOf(sandbox());
		expect(checks).toHaveLength(1);
		expect(checks[0].body.aggregate[0]).toEqual({
			$group: { _id: { k0: '$data.A', k1: '$data.B' }, n: { $sum: 1 } },
		});
		expect(checks[0].body.where.$filters).toEqual([
			{ column: 'A', condition: 'oneof', value: ['a', 'b'] },
			{ column: 'B', condition: 'oneof', value: ['x', 'y'] },
		]);
		expect(queriesOf(sandbox())).toHaveLength(2);
		expect(storedData(sandbox(), id)).toEqual([{ A: 'z', B: 'z' }, ...rows]);
	});

	it('with a key column holding a dot reads the data source whole instead of aggregating, as the read does', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = [{ 'user.email': 'a@x.io' }, { 'user.email': 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows, { keyColumns: 'user.email' });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, requests: 3 });
		expect(checksOf(sandbox())).toHaveLength(0);
		// A `$filters` column with a dot may be read as a nested path: no key would be found.
		const [read, keyRead] = queriesOf(sandbox());
		for (const query of [read, keyRead]) {
			expect(query.body.attributes).toBeUndefined();
			expect(query.body.where).toBeUndefined();
		}
	});

	it.each([['$code'], ['Email, $code']])(
		'with key columns %s (one starting with $) reads the keys whole and repairs a duplicate',
		async (keyColumns) => {
			const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io', $code: 'c0' }]);
			otherWriterInsertsDuringCommit(sandbox(), id, [
				{ Email: 'new@x.io', $code: 'c1', Name: 'From the other run' },
			]);
			const result = await runSync(
				sandbox(),
				id,
				[
					{ Email: 'new@x.io', $code: 'c1', Name: 'From this run' },
					{ Email: 'more@x.io', $code: 'c2' },
				],
				{ keyColumns },
			);

			expect(result.error).toBeUndefined();
			// The read, the insert commit, the read of the keys, the delete.
			expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1, requests: 4 });
			expect(checksOf(sandbox())).toHaveLength(0);
			expect(queriesOf(sandbox())[1].body.attributes).toBeUndefined();
			expect(storedData(sandbox(), id).map((data) => [data.$code, data.Name])).toEqual([
				['c0', undefined],
				['c1', 'From the other run'],
				['c2', undefined],
			]);
		},
	);

	it('when only an inserted key has a second entry, deletes just that extra entry in an append commit', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'new@x.io', Name: 'Other run' }]);
		const result = await runSync(sandbox(), id, [
			{ Email: 'new@x.io', Name: 'This run' },
			{ Email: 'more@x.io' },
		]);

		expect(result.error).toBeUndefined();
		// The read, the insert, the check, the read of the keys, the delete.
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1, requests: 5 });
		const keyRead = queriesOf(sandbox())[2];
		expect(keyRead.body.attributes).toEqual(['id', 'data.Email']);
		expect(keyRead.body.where).toEqual(checksOf(sandbox())[0].body.where);
		const stored = storedEntries(sandbox(), id);
		expect(commitsOf(sandbox())).toHaveLength(2);
		const repair = commitsOf(sandbox())[1];
		expect(repair.body).toEqual({
			entries: [],
			append: true,
			delete: [expect.any(Number)],
			returnEntries: false,
		});
		expect(stored.map((entry) => entry.id)).not.toContain(repair.body.delete[0]);
		expect(stored.map((entry) => entry.data)).toEqual([
			{ Email: 'old@x.io' },
			{ Email: 'new@x.io', Name: 'Other run' },
			{ Email: 'more@x.io' },
		]);
	});

	it('re-sends the repair delete after a server failure, since deleting again changes nothing', async () => {
		const id = await dataSourceWith(sandbox(), []);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'new@x.io', Name: 'Other run' }]);
		failNthCommit(sandbox(), 2, 503);
		const result = await runSync(sandbox(), id, [{ Email: 'new@x.io', Name: 'This run' }]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, duplicatesRemoved: 1 });
		expect(commitsOf(sandbox()).map((commit) => commit.status)).toEqual([200, 503, 200]);
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'new@x.io', Name: 'Other run' }]);
	});

	it('with case ignored, finds a key stored in another spelling by another run and keeps the older entry', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'NEW@x.io', Name: 'Other run' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'new@x.io', Name: 'This run' }], {
			syncOptions: { ignoreKeyCase: true },
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, duplicatesRemoved: 1, requests: 5 });
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'old@x.io' },
			{ Email: 'NEW@x.io', Name: 'Other run' },
		]);
	});

	it('with case kept, leaves alone another key that only differs in case, even when it has two entries', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		otherWriterInsertsDuringCommit(sandbox(), id, [
			{ Email: 'NEW@x.io', Name: 'Other run 1' },
			{ Email: 'NEW@x.io', Name: 'Other run 2' },
		]);
		const result = await runSync(sandbox(), id, [{ Email: 'new@x.io', Name: 'This run' }]);

		expect(result.error).toBeUndefined();
		// The check cannot tell the spellings apart, so Sync reads the keys: nothing to remove.
		expect(result.json[0]).toMatchObject({ inserted: 1, duplicatesRemoved: 0, requests: 4 });
		expect(commitsOf(sandbox())).toHaveLength(1);
		expect(storedData(sandbox(), id)).toHaveLength(4);
	});

	const malformedChecks: Array<[string, unknown]> = [
		['a group that is not an object', { entries: [null] }],
		['a group without a count', { entries: [{ _id: 1 }] }],
		['a group id that is text', { entries: [{ _id: '1', keys: 1 }] }],
		['a count that is text', { entries: [{ _id: 1, keys: '1' }] }],
		['a group of keys held twice', { entries: [{ _id: 2, keys: 1 }] }],
	];

	it.each(malformedChecks)(
		'when the check answers %s, reads the keys and repairs exactly',
		async (_name, answer) => {
			const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
			otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'new@x.io', Name: 'Other run' }]);
			faultNthRequest(sandbox(), { method: 'POST', path: /\/data\/query$/ }, 2, {
				mode: 'status-before',
				status: 200,
				body: answer,
			});
			const result = await runSync(sandbox(), id, [
				{ Email: 'new@x.io', Name: 'This run' },
				{ Email: 'more@x.io' },
			]);

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1, requests: 5 });
			expect(storedData(sandbox(), id)).toEqual([
				{ Email: 'old@x.io' },
				{ Email: 'new@x.io', Name: 'Other run' },
				{ Email: 'more@x.io' },
			]);
		},
	);
});

describe('Entry → Sync: the duplicate check after filling an empty data source', () => {
	// These count the requests of a run that reads every entry (see the targeted read below).
	useReadPath('full');

	const COUNT_BY_KEY = [
		{ $group: { _id: '$data.Email', n: { $sum: 1 } } },
		{ $group: { _id: '$n', keys: { $sum: 1 } } },
	];

	it('counts the whole data source once, without sending the keys', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }, { Email: 'c@x.io' }];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 3, duplicatesRemoved: 0, requests: 3 });
		const checks = checksOf(sandbox());
		expect(checks.map((check) => check.body)).toEqual([
			{ type: 'select', aggregate: COUNT_BY_KEY },
		]);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('checks the keys and repairs when another run inserted one of them meanwhile', async () => {
		const id = await dataSourceWith(sandbox(), []);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'b@x.io', Name: 'Other run' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }, { Email: 'b@x.io' }]);

		expect(result.error).toBeUndefined();
		// The read, the insert, the count, the check of the keys, the read of the keys, the delete.
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1, requests: 6 });
		const checks = checksOf(sandbox());
		expect(checks[0].body).not.toHaveProperty('where');
		expect(checks[1].body.where.$filters[0].value).toEqual(['a@x.io', 'b@x.io']);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'b@x.io', Name: 'Other run' },
			{ Email: 'a@x.io' },
		]);
	});

	it('checks the keys when another run inserted other keys meanwhile, and removes nothing', async () => {
		const id = await dataSourceWith(sandbox(), []);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'z@x.io' }]);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, duplicatesRemoved: 0, requests: 4 });
		expect(checksOf(sandbox())).toHaveLength(2);
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'z@x.io' }, { Email: 'a@x.io' }]);
	});

	it('sends no check when every row was left out', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }, { Email: 'a@x.io' }]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, requests: 1 });
		expect(checksOf(sandbox())).toHaveLength(0);
	});
});

describe('Entry → Sync: a transient fault on the duplicate check', () => {
	// These count the requests of a run that reads every entry (see the targeted read below).
	useReadPath('full');

	it('asks again (the check only reads) and the run completes', async () => {
		const id = await dataSourceWith(sandbox(), []);
		faultNthRequest(sandbox(), { method: 'POST', path: /\/data\/query$/ }, 2, {
			mode: 'status-before',
			status: 503,
		});
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 0 });
		expect(checksOf(sandbox()).map((request) => request.status)).toEqual([503, 200]);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});
});

describe('Entry → Sync: the read', () => {
	// These count the requests of a run that reads every entry (see the targeted read below).
	useReadPath('full');

	it('of the data source sends no where, and an answer without a total still reads every entry', async () => {
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const id = await dataSourceWith(sandbox(), rows);
		const [a, b] = storedEntries(sandbox(), id);
		sandbox().injectFault({
			mode: 'status-before',
			status: 200,
			body: { entries: [a, b] },
			method: 'POST',
			path: '/data/query$',
		});
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, unchanged: 2 });
		expect(queriesOf(sandbox())[0].body).not.toHaveProperty('where');
		// Without a total the read goes on until a page brings nothing new.
		expect(queriesOf(sandbox())).toHaveLength(2);
	});
});

describe('Entry → Sync: the duplicate check after a targeted read', () => {
	it('after a read that found no key, counts the data source whole when the look at it found it empty', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		// The read of the keys, the look at the data source, the insert, the count.
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 0, requests: 4 });
		expect(checksOf(sandbox()).map((check) => check.body.where)).toEqual([undefined]);
	});

	it('checks the inserted keys, and the keys it found on several entries, and repairs them', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'old@x.io', N: 1 },
			{ Email: 'old@x.io', N: 2 },
		]);
		otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'new@x.io', Name: 'Other run' }]);
		const result = await runSync(sandbox(), id, [
			{ Email: 'old@x.io', N: 1 },
			{ Email: 'new@x.io', Name: 'This run' },
		]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, unchanged: 1, duplicatesRemoved: 2 });
		expect(checksOf(sandbox())[0].body.where.$filters[0].value).toEqual(['new@x.io', 'old@x.io']);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'old@x.io', N: 1 },
			{ Email: 'new@x.io', Name: 'Other run' },
		]);
	});
});

describe('Entry → Sync: the ids of new entries', () => {
	it('gives every new row a note when an insert commit is answered with a JSON null', async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: Buffer.from('null'),
			headers: { 'Content-Type': 'application/json' },
			method: 'POST',
			path: '/commit$',
		});
		const rows = [{ Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 0 });
		expect(result.json.slice(1).map((row) => [row.id, row.idNote])).toEqual([
			[null, expect.stringMatching(/did not return the id/)],
			[null, expect.stringMatching(/did not return the id/)],
		]);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('hands back the new ids of insert commits only, and only with Output Rows on', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', N: 0 }]);
		const rows = [
			{ Email: 'a@x.io', N: 1 },
			{ Email: 'b@x.io', N: 2 },
		];
		const listed = await runSync(sandbox(), id, rows, { syncOptions: { outputRows: true } });
		const [a, b] = storedEntries(sandbox(), id);
		expect(listed.json.slice(1)).toEqual([
			{ action: 'update', id: a.id, key: 'a@x.io', data: rows[0] },
			{ action: 'insert', id: b.id, key: 'b@x.io', data: rows[1] },
		]);

		const quiet = await runSync(sandbox(), id, [{ Email: 'c@x.io' }]);
		expect(quiet.json).toHaveLength(1);
		expect(quiet.json[0]).toMatchObject({ inserted: 1 });
	});
});

describe('Entry → Sync: Output Rows names entries that exist', () => {
	it.each([
		['read by key', 'targeted'],
		['read whole', 'full'],
	] as const)(
		'(%s) after another writer inserted the same key first: the kept entry, which exists',
		async (_name, path) => {
			const { targetedKeys } = readSizes;
			if (path === 'full') readSizes.targetedKeys = 0;
			try {
				const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
				otherWriterInsertsDuringCommit(sandbox(), id, [{ Email: 'new@x.io', Name: 'Other run' }]);
				const result = await runSync(
					sandbox(),
					id,
					[{ Email: 'new@x.io', Name: 'This run' }, { Email: 'more@x.io' }],
					{ syncOptions: { outputRows: true } },
				);

				expect(result.error).toBeUndefined();
				expect(result.json[0]).toMatchObject({ inserted: 2, duplicatesRemoved: 1 });
				const stored = storedEntries(sandbox(), id);
				const [, kept, more] = stored;
				expect(stored.map((entry) => entry.data)).toEqual([
					{ Email: 'old@x.io' },
					{ Email: 'new@x.io', Name: 'Other run' },
					{ Email: 'more@x.io' },
				]);
				// This run's own entry for new@x.io (a higher id) was the one deleted.
				const repair = commitsOf(sandbox())[1];
				expect(repair.body.delete).toEqual([expect.any(Number)]);
				expect(repair.body.delete[0]).toBeGreaterThan(kept.id);
				expect(result.json.slice(1)).toEqual([
					{
						action: 'insert',
						id: kept.id,
						key: 'new@x.io',
						data: { Email: 'new@x.io', Name: 'This run' },
					},
					{ action: 'insert', id: more.id, key: 'more@x.io', data: { Email: 'more@x.io' } },
				]);
			} finally {
				readSizes.targetedKeys = targetedKeys;
			}
		},
	);
});

describe('Entry → Sync: the duplicate check of many long keys', () => {
	it('is split in several requests once the keys pass 64 MB, each key counting its quotes and comma', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		// 64 keys of 1 MiB: with what each adds to the request they pass 64 MiB by 256 bytes.
		const rows = Array.from({ length: 64 }, (_, n) => ({
			Email: `${String(n).padStart(2, '0')}`.padEnd(1024 * 1024, 'x'),
		}));
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 64, duplicatesRemoved: 0 });
		const checks = checksOf(sandbox());
		expect(checks.map((check) => check.body.where.$filters[0].value.length)).toEqual([63, 1]);
	}, 120_000);
});
