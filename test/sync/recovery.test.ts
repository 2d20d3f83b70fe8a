/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { RECOVERY_ROUNDS } from '../../nodes/Fliplet/actions/entry/sync/sendPlan';
import { MAX_FAULT_RETRIES } from '../../nodes/Fliplet/transport/retryPolicy';
import { useSandbox, type SandboxFault } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	commitsOf,
	dataSourceWith,
	duplicateKeys,
	runSync,
	storedData,
	storedEntries,
} from './fixtures';

const sandbox = useSandbox();

const rowsOf = (count: number, from = 0) =>
	Array.from({ length: count }, (_, n) => ({ Email: `r${from + n}@x.io`, N: from + n }));

/** The stored rows by key, so the order of entries does not matter. */
const byKey = (rows: IDataObject[]) =>
	Object.fromEntries(rows.map((row) => [String(row.Email), row]));

/** An answer that comes after the credential's timeout (1 s), long after the rows were stored. */
const LATE: SandboxFault = { mode: 'delay', delayMs: 60_000 };

const lostAfterStoring: Array<[string, SandboxFault]> = [
	['the connection dropped after the server stored it', { mode: 'drop-after' }],
	['a body cut mid-way', { mode: 'cut-after' }],
	['a timeout while the server stored it', LATE],
	['a 502 after the server stored it', { mode: 'status-after', status: 502 }],
];

describe('Entry → Sync: a commit whose answer is lost no longer stops the run', () => {
	it.each(lostAfterStoring)(
		'3,000 rows in commits of 500, the second one meeting %s: every key stored once, the summary tells the recovery',
		async (_name, fault) => {
			const id = await dataSourceWith(sandbox(), []);
			const rows = rowsOf(3000);
			faultNthCommit(sandbox(), 2, fault as any);
			const result = await runSync(
				sandbox(),
				id,
				rows,
				{ syncOptions: { chunkSize: 500, outputRows: true } },
				{ timeoutSeconds: fault === LATE ? 1 : undefined },
			);

			expect(result.error).toBeUndefined();
			const [summary, ...items] = result.json;
			// The first commits ramp up to 500 rows (see planCommits): the second carries 250.
			const lost = commitsOf(sandbox())[1].body.entries.length;
			expect(lost).toBe(250);
			expect(summary).toMatchObject({ inserted: 3000, duplicatesRemoved: 0 });
			const recovered = summary.recovered as Record<string, number>;
			if (fault === LATE) {
				// The short timeout is the run's: on a busy machine another answer may come too late
				// as well. Every commit was stored, so whatever was read was found, nothing re-sent.
				expect(recovered.commits).toBeGreaterThanOrEqual(1);
				expect(recovered.rowsFound).toBeGreaterThanOrEqual(lost);
				expect(recovered.rowsResent).toBe(0);
			} else expect(recovered).toEqual({ commits: 1, rowsFound: lost, rowsResent: 0 });
			expect(summary).not.toHaveProperty('error');
			expect(duplicateKeys(sandbox(), id)).toEqual([]);
			expect(byKey(storedData(sandbox(), id))).toEqual(byKey(rows));
			// Each stored insert is reported once, with the id it got, the lost commit's too.
			const stored = new Map(storedEntries(sandbox(), id).map((e) => [e.data.Email, e.id]));
			expect(items).toHaveLength(3000);
			for (const item of items) expect(item.id).toBe(stored.get(item.key as string));
			// No insert was sent twice: the lost commit's rows were found, not re-sent.
			const sent = commitsOf(sandbox()).flatMap((commit) => commit.body.entries);
			expect(sent).toHaveLength(3000);
		},
	);

	it('a 5xx before the server stored an insert commit: its keys are read, found absent, and sent again once', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = rowsOf(30);
		faultNthCommit(sandbox(), 2, { mode: 'status-before', status: 500 });
		const result = await runSync(sandbox(), id, rows, { syncOptions: { chunkSize: 10 } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 30,
			commits: 3,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 10 },
		});
		expect(byKey(storedData(sandbox(), id))).toEqual(byKey(rows));
		expect(storedData(sandbox(), id)).toHaveLength(30);
		const statuses = commitsOf(sandbox()).map((commit) => commit.status);
		expect(statuses.filter((status) => status === 500)).toHaveLength(1);
		expect(statuses).toHaveLength(4);
	});

	it('a re-sent remainder lost again is read again, then the run goes on', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = rowsOf(20);
		// Commit 2 is refused by a 5xx (nothing stored), its re-send is stored but its answer lost.
		faultNthCommit(sandbox(), 2, { mode: 'status-before', status: 500 });
		faultNthCommit(sandbox(), 3, { mode: 'drop-after' });
		const result = await runSync(sandbox(), id, rows, { syncOptions: { chunkSize: 10 } });

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 20,
			recovered: { commits: 2, rowsFound: 10, rowsResent: 10 },
		});
		expect(byKey(storedData(sandbox(), id))).toEqual(byKey(rows));
		expect(storedData(sandbox(), id)).toHaveLength(20);
	});

	it(`stops after ${RECOVERY_ROUNDS} rounds whose re-sends are all lost, with the exact report`, async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = rowsOf(4);
		// Every commit is refused by a 5xx before it is stored: each round re-sends the rows.
		sandbox().injectFault({
			mode: 'status-before',
			status: 500,
			count: RECOVERY_ROUNDS + 1,
			method: 'POST',
			path: '/commit$',
		});
		const result = await runSync(sandbox(), id, rows, {}, { continueOnFail: true });

		expect(result.json[0]).toMatchObject({
			inserted: 0,
			failedCommit: 1,
			mayHaveLanded: { commits: 1, inserted: 4 },
			recovered: { commits: RECOVERY_ROUNDS, rowsFound: 0, rowsResent: 4 * RECOVERY_ROUNDS },
		});
		expect(String(result.json[0].description)).toMatch(
			/^Commit 1 of 1 may have landed \(4 inserted, 0 updated, 0 deleted\)/,
		);
		expect(commitsOf(sandbox())).toHaveLength(RECOVERY_ROUNDS + 1);
		expect(storedData(sandbox(), id)).toEqual([]);
	});

	it('an update commit that runs hooks (never re-sent blindly): found stored, not sent again', async () => {
		const existing = rowsOf(6);
		const id = await dataSourceWith(sandbox(), existing);
		const rows = existing.map((row) => ({ ...row, N: Number(row.N) + 100 }));
		faultNthCommit(sandbox(), 1, { mode: 'drop-after' });
		const result = await runSync(sandbox(), id, rows, {
			syncOptions: { runHooks: ['update'], chunkSize: 3 },
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			updated: 6,
			recovered: { commits: 1, rowsFound: 3, rowsResent: 0 },
		});
		expect(commitsOf(sandbox())).toHaveLength(2);
		// The hooks ran once per entry.
		const hookRuns = (sandbox().state.hookRuns ?? []).flatMap((run: any) => run.entryIds);
		expect(hookRuns).toHaveLength(6);
		expect(new Set(hookRuns).size).toBe(6);
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('an update commit with hooks refused by a 5xx before it was stored: its rows are read, then sent again once', async () => {
		const existing = rowsOf(3);
		const id = await dataSourceWith(sandbox(), existing);
		const rows = existing.map((row) => ({ ...row, N: Number(row.N) + 100 }));
		faultNthCommit(sandbox(), 1, { mode: 'status-before', status: 500 });
		const result = await runSync(sandbox(), id, rows, {
			syncOptions: { runHooks: ['update'] },
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			updated: 3,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 3 },
		});
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	// A delete is re-sent by the transport: these faults outlast its retries.
	it.each([
		[
			'whose answer is lost on every retry: the entries already gone count as deleted',
			{ mode: 'drop-after', count: MAX_FAULT_RETRIES + 1 } as const,
			{ rowsFound: 3, rowsResent: 0 },
		],
		[
			'refused by a 5xx on every retry: the entries still there are deleted again',
			{ mode: 'status-before', status: 503, count: MAX_FAULT_RETRIES + 1 } as const,
			{ rowsFound: 0, rowsResent: 3 },
		],
	])('a mirror delete %s', async (_name, fault, rowCounts) => {
		// An entry without a key is deleted too (found by reading every entry).
		const existing = [...rowsOf(4), { Name: 'no key' }];
		const id = await dataSourceWith(sandbox(), existing);
		const rows = existing.slice(0, 2);
		faultNthCommit(sandbox(), 1, fault);
		const result = await runSync(sandbox(), id, rows, {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 10, maxDeleteShare: 100 },
		});

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 3, recovered: { commits: 1, ...rowCounts } });
		expect(storedData(sandbox(), id)).toEqual(rows);
	});

	it('the duplicate repair whose delete is lost: checked again, the extra entry already gone counts as removed', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'old@x.io' }]);
		const store = require('../../sandbox/dataSources/store');
		sandbox().beforeHandling({
			path: '/commit$',
			run: (state) => {
				const dataSource = state.dataSources.find((ds: any) => ds.id === id);
				store.appendEntries(state, id, [
					store.newEntry(state, dataSource, { Email: 'new@x.io', By: 'other' }),
				]);
			},
		});
		faultNthCommit(sandbox(), 2, {
			mode: 'status-after',
			status: 503,
			count: MAX_FAULT_RETRIES + 1,
		});
		const result = await runSync(sandbox(), id, [{ Email: 'new@x.io' }, { Email: 'more@x.io' }]);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			inserted: 2,
			duplicatesRemoved: 1,
			recovered: { commits: 1, rowsFound: 1, rowsResent: 0 },
		});
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		expect(storedData(sandbox(), id)).toEqual([
			{ Email: 'old@x.io' },
			{ Email: 'new@x.io', By: 'other' },
			{ Email: 'more@x.io' },
		]);
	});
});

describe('Entry → Sync: when what a lost commit stored cannot be read', () => {
	/** Once the `n`-th commit has met its fault, every query fails until the transport gives up. */
	function failReadsAfterCommit(n: number) {
		let commits = 0;
		const { onSandboxRequest } = require('../harness');
		onSandboxRequest(sandbox(), (request: any) => {
			if (/\/commit$/.test(request.path) && ++commits === n) {
				sandbox().injectFault({
					mode: 'status-before',
					status: 503,
					count: MAX_FAULT_RETRIES + 1,
					method: 'POST',
					path: '/data/query$',
				});
			}
		});
	}

	it('stops with the exact report: what landed, what may have, and that the read failed', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = rowsOf(30);
		faultNthCommit(sandbox(), 2, { mode: 'drop-after' });
		failReadsAfterCommit(2);
		const result = await runSync(sandbox(), id, rows, { syncOptions: { chunkSize: 10 } });

		expect(result.error?.message).toMatch(/^Sync stopped at commit 2 of 3 \(insert of 10 rows\): /);
		const description = result.error?.description ?? '';
		expect(description).toMatch(
			/Commit 2 of 3 may have landed \(10 inserted, 0 updated, 0 deleted\): it failed after being sent/,
		);
		expect(description).toMatch(/Reading its keys to see what it stored failed too \(/);
		expect(description).toContain('re-running Sync is safe');
		// Commit 3 was on its way with commit 2; nothing was sent once the read had failed.
		expect(commitsOf(sandbox()).length).toBeLessThanOrEqual(3);
		expect(duplicateKeys(sandbox(), id)).toEqual([]);

		sandbox().requests.length = 0;
		const rerun = await runSync(sandbox(), id, rows);
		expect(rerun.error).toBeUndefined();
		expect(byKey(storedData(sandbox(), id))).toEqual(byKey(rows));
		expect(storedData(sandbox(), id)).toHaveLength(30);
	});
});
