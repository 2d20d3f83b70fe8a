import type { IDataObject } from 'n8n-workflow';

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

		// The run completes on its own: update and delete commits are re-sent by the transport;
		// an insert commit (never re-sent blindly), or any commit still failing after the
		// transport's retries, has its keys read, and only what was not stored goes again.
		expect(first.error).toBeUndefined();
		expect(first.json[0]).toMatchObject({ inserted: 4, updated: 4, deleted: 2 });
		const { commits: recovered } = first.json[0].recovered as { commits: number };
		if (fault.count !== undefined) {
			// An outage also meets the commits on their way beside the one it started at.
			expect(recovered).toBeGreaterThanOrEqual(1);
		} else expect(recovered).toBe(kind === 'insert' ? 1 : 0);
		const commits = commitsOf(sandbox());
		const kinds = commits.map((commit) => (commit.body.delete?.length ? 'delete' : 'upsert'));
		// The mirror delete goes only once every upsert has landed: after the last of them.
		expect(kinds.indexOf('delete')).toBeGreaterThan(kinds.lastIndexOf('upsert'));
		const stored = storedData(sandbox(), id);
		// No row lost, none duplicated, nothing left that the input does not hold.
		expect(byEmail(stored)).toEqual(byEmail(input));
		expect(new Set(stored.map((row) => row.Email)).size).toBe(stored.length);

		sandbox().requests.length = 0;
		const rerun = await runSync(id);
		expect(rerun.error).toBeUndefined();
		expect(rerun.json[0]).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
		expect(commitsOf(sandbox())).toHaveLength(0);
	});
});
