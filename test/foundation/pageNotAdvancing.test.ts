import type { IDataObject } from 'n8n-workflow';

import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { runPoll } from '../harness/poll';
import { addLog } from '../organization/seedLogs';
import { dataSourceWith, runSync } from '../sync/fixtures';

const sandbox = useSandbox();

/**
 * A server that ignores `offset` answers every page with the first one. Armed for a bounded number
 * of requests, so that a read that never notices still ends (its test then fails on what it did).
 */
const ignoreOffset = (path: string) =>
	sandbox().injectFault({ mode: 'ignore-offset', count: 40, path });

const NOT_ADVANCING = /the read does not advance$/;

const rows = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, n) => ({
		Email: `row${n}@x.io`,
		Department: `D${n % 7}`,
		N: n,
	}));

/**
 * The trigger's poll after `arrive` added many events, against a server that ignores `offset` on
 * `path` from then on (the first poll only stored the cursor).
 */
async function pollOnceMoreArrived(
	parameters: IDataObject,
	token: string,
	arrive: () => Promise<void>,
	path: string,
) {
	const credentials = sandboxCredential(sandbox(), token);
	const poll = (staticData?: IDataObject) =>
		runPoll({ parameters: parameters as never, credentials, staticData, mode: 'trigger' });
	const started = await poll();
	expect(started.error).toBeUndefined();
	await arrive();
	sandbox().requests.length = 0;
	ignoreOffset(path);
	return await poll(started.staticData);
}

function getMany(dataSourceId: number, options: IDataObject, extra: IDataObject = {}) {
	return runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			returnAll: true,
			options: { pageSize: 10, ...options },
			...extra,
		} as never,
		credentials: sandboxCredential(sandbox()),
	});
}

describe('a paged read stops with a clear error when a page does not advance', () => {
	it.each([
		['in entry ID order', {}, {}],
		['in a chosen order', {}, { sort: { property: [{ column: 'N', direction: 'DESC' }] } }],
		['of distinct rows', { attributes: 'Department,N', distinct: true }, {}],
	])('Entry → Get Many %s', async (_read, options, extra) => {
		const id = await dataSourceWith(sandbox(), rows(35));
		ignoreOffset('/data/query$');
		const result = await getMany(id, options, extra);
		expect(result.error?.message).toMatch(NOT_ADVANCING);
		expect(result.error?.description).toMatch(/ignored the offset/);
		expect(result.error?.context?.itemIndex).toBe(0);
		// The first page, the next (whose records are those of the first), and pages asked ahead.
		expect(apiRequests(sandbox(), /\/data\/query$/).length).toBeLessThanOrEqual(6);
	});

	it('Sync stops before changing anything', async () => {
		const id = await dataSourceWith(sandbox(), rows(5_050));
		ignoreOffset('/data/query$');
		// Mirror reads every entry (a few rows elsewhere are read by their keys, in one page).
		const result = await runSync(sandbox(), id, rows(3), { syncMode: 'mirror' });
		expect(result.error?.message).toMatch(NOT_ADVANCING);
		expect(apiRequests(sandbox(), /\/commit$/)).toEqual([]);
		expect(apiRequests(sandbox(), /\/data\/query$/).length).toBeLessThanOrEqual(6);
	});

	describe('organization audit logs (pages of 500)', () => {
		beforeEach(() => {
			for (let n = 0; n < 1_200; n++) addLog(sandbox().state, { type: 'form.submit' });
		});

		it.each([['json'], ['csv']])('Get Audit Logs as %s', async (format) => {
			ignoreOffset('/logs$');
			const result = await runNode({
				parameters: {
					resource: 'organization',
					operation: 'getAuditLogs',
					organization: { __rl: true, mode: 'id', value: '1' },
					returnAll: true,
					format,
				} as never,
				credentials: sandboxCredential(sandbox(), TOKENS.org),
			});
			expect(result.error?.message).toMatch(NOT_ADVANCING);
			expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(2);
		});

		it('the Fliplet Trigger on new audit log records', async () => {
			const next = await pollOnceMoreArrived(
				{
					event: 'auditLog',
					organization: { __rl: true, mode: 'id', value: '1' },
					eventTypes: 'form.submit',
				},
				TOKENS.org,
				async () => {
					for (let n = 0; n < 1_200; n++) addLog(sandbox().state, { type: 'form.submit' });
				},
				'/logs$',
			);
			expect(next.error?.message).toMatch(NOT_ADVANCING);
			expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(2);
		});
	});

	it('the Fliplet Trigger on new data source entries', async () => {
		const id = await dataSourceWith(sandbox(), rows(3));
		const next = await pollOnceMoreArrived(
			{ event: 'newEntry', dataSource: { __rl: true, mode: 'id', value: String(id) } },
			TOKENS.app,
			async () => {
				await runSync(sandbox(), id, rows(1_600));
			},
			'/data/query$',
		);
		expect(next.error?.message).toMatch(NOT_ADVANCING);
		expect(apiRequests(sandbox(), /\/data\/query$/).length).toBeLessThanOrEqual(6);
	});
});
