import type { IDataObject } from 'n8n-workflow';

import { COMMITS_IN_FLIGHT } from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { MAX_FAULT_RETRIES } from '../../nodes/Fliplet/transport/retryPolicy';
import { runNode, sandboxCredential, useSandbox } from '../harness';
import { commitsOf, dataSourceWith, storedData } from '../sync/fixtures';
import { faultNthCommit, type CommitFault } from './commitFaults';

const sandbox = useSandbox();

let restoreLog: (() => void) | undefined;
afterEach(() => restoreLog?.());

/**
 * Remote: k0…k6. Input: k0–k3 changed, k4 unchanged, n0–n3 new; k5 and k6 are gone.
 * With a chunk size of 2 in mirror mode: update, update, insert, insert, delete (5 commits).
 */
const remote = Array.from({ length: 7 }, (_, n) => ({ Email: `k${n}@x.io`, N: n }));
const input: IDataObject[] = [
	...remote.slice(0, 4).map((row) => ({ ...row, N: row.N + 100 })),
	remote[4],
	...Array.from({ length: 4 }, (_, n) => ({ Email: `n${n}@x.io`, N: 200 + n })),
];
const COMMITS = ['update', 'update', 'insert', 'insert', 'delete'] as const;
const parameters = { syncMode: 'mirror', syncOptions: { chunkSize: 2 } };

/**
 * Sync through the real engine; with `shortTimeout`, a credential timeout (seconds) the delay fault
 * outlasts but a normal answer never reaches, even on a busy machine.
 */
async function runSync(id: number, shortTimeout = false) {
	const { flipletApi } = sandboxCredential(sandbox());
	return await runNode({
		parameters: {
			resource: 'entry',
			operation: 'sync',
			dataSource: { __rl: true, mode: 'id', value: String(id) },
			keyColumns: 'Email',
			...parameters,
		},
		input: input.map((json) => ({ json })),
		credentials: { flipletApi: shortTimeout ? { ...flipletApi, timeout: 2 } : flipletApi },
	});
}

const byEmail = (rows: IDataObject[]) =>
	[...rows].sort((a, b) => String(a.Email).localeCompare(String(b.Email)));

const FAULTS: Array<[string, CommitFault]> = [
	['a 500 before processing', { mode: 'status-before', status: 500 }],
	['a 500 after processing', { mode: 'status-after', status: 500 }],
	['a connection dropped after processing', { mode: 'drop-after' }],
	['an answer after the timeout', { mode: 'delay', delayMs: 60_000 }],
];

/** Outlasts the transport's retries (1 + MAX_FAULT_RETRIES attempts), then the API is back. */
const OUTAGE: CommitFault = { mode: 'status-before', status: 503, count: MAX_FAULT_RETRIES + 1 };

const table = [
	...COMMITS.flatMap((kind, index) =>
		FAULTS.map(([faultName, fault]) => [index + 1, kind, faultName, fault] as const),
	),
	// An update chunk that finally fails: the mirror deletes must not run.
	[2, 'update', 'an outage longer than the retries', OUTAGE] as const,
];

describe('Sync (mirror, chunks of 2) with a fault at every commit boundary', () => {
	it.each(table)('commit %i (%s) meets %s', async (n, kind, _name, fault) => {
		const id = await dataSourceWith(sandbox(), remote);
		restoreLog = faultNthCommit(sandbox(), n, fault);

		const first = await runSync(id, fault.mode === 'delay');
		restoreLog();

		const commits = commitsOf(sandbox());
		const sentDeletes = commits.filter((commit) => commit.body?.delete?.length);
		const retried = kind !== 'insert' && fault.count === undefined;
		if (retried) {
			// Update and delete commits are safe to re-send: the run completes on its own.
			expect(first.error).toBeUndefined();
			expect(commits).toHaveLength(COMMITS.length + 1);
		} else {
			// An outage also meets the commits on their way beside the one it started at.
			const stoppedAt = Number(/^Sync stopped at commit (\d) of 5/.exec(first.error!.message)?.[1]);
			if (fault.count === undefined) expect(stoppedAt).toBe(n);
			else expect(stoppedAt).toBeGreaterThanOrEqual(n);
			expect(first.error?.description).toMatch(/re-running Sync is safe/);
			// Nothing was sent once the failure was known, only what was already on its way (and
			// the retries of an update); above all, no mirror delete.
			const onTheWay = COMMITS_IN_FLIGHT - 1;
			expect(commits.length).toBeLessThanOrEqual(n + onTheWay + (kind === 'insert' ? 0 : 3));
			if (kind !== 'delete') expect(sentDeletes).toHaveLength(0);
			expect(storedData(sandbox(), id).map((row) => row.Email)).toEqual(
				expect.arrayContaining(['k5@x.io', 'k6@x.io'].slice(0, kind === 'delete' ? 0 : 2)),
			);
		}

		sandbox().requests.length = 0;
		const rerun = await runSync(id);
		expect(rerun.error).toBeUndefined();

		const stored = storedData(sandbox(), id);
		// No row lost, none duplicated, nothing left that the input does not hold.
		expect(byEmail(stored)).toEqual(byEmail(input));
		expect(new Set(stored.map((row) => row.Email)).size).toBe(stored.length);
	});
});
