/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import { MAX_COMMIT_BYTES } from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { MAX_CHUNK_SIZE } from '../../nodes/Fliplet/actions/entry/sync/description';
import { useSandbox, type Sandbox } from '../harness';
import { startApiProxy, type ApiProxy } from './apiProxy';
import { commitsOf, dataSourceWith, runSync, storedData, storedEntries } from './fixtures';

const sandbox = useSandbox();

let proxy: ApiProxy | undefined;
afterEach(async () => {
	await proxy?.close();
	proxy = undefined;
});

/** Sync through `api` instead of straight to the sandbox: the proxy's address stands in for it. */
const runSyncVia = (
	api: ApiProxy,
	dataSourceId: number,
	rows: IDataObject[],
	parameters: IDataObject,
) => runSync({ url: api.url } as Sandbox, dataSourceId, rows, parameters);

/** An API that answers at most `cap` entries per page, whatever was asked, and maybe no total. */
function cappedPages(cap: number, total: 'kept' | 'none') {
	const isQuery = (path: string) => /\/data\/query$/.test(path);
	return {
		request: (path: string, body: any) =>
			isQuery(path) && typeof body?.limit === 'number'
				? { ...body, limit: Math.min(body.limit, cap) }
				: body,
		response: (path: string, body: any) => {
			if (!isQuery(path) || total === 'kept' || !body?.pagination) return body;
			const { pagination, ...rest } = body;
			return total === 'none' ? rest : { ...rest, pagination };
		},
	};
}

const rows = Array.from({ length: 11 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));

describe('Entry → Sync: reading every entry', () => {
	it.each([
		['with no total, in pages smaller than asked', 'none'],
		['with a total, in pages smaller than asked', 'kept'],
	] as const)('reads every entry exactly once %s', async (_name, total) => {
		const id = await dataSourceWith(sandbox(), rows);
		const ids = storedEntries(sandbox(), id).map((entry) => entry.id);
		const [p0] = ids;
		proxy = await startApiProxy(sandbox(), cappedPages(3, total));
		const input = [...rows.slice(1, 10), { Email: 'p10@x.io', N: 100 }];
		const result = await runSyncVia(proxy, id, input, {
			syncMode: 'mirror',
			syncOptions: { outputRows: true },
		});

		expect(result.error).toBeUndefined();
		// Only p0 is gone and p10 changed: an entry never read would be inserted again, one kept
		// twice would be deleted as a duplicate of its own key.
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1, deleted: 1, unchanged: 9 });
		expect(result.json.slice(1).map((row) => [row.action, row.key])).toEqual([
			['update', 'p10@x.io'],
			['delete', 'p0@x.io'],
		]);
		expect(result.json[2].id).toBe(p0);
		// Every entry was read (pages may overlap: Sync, not the API, keeps each entry once).
		const read = proxy.answers
			.filter((answer) => /\/data\/query$/.test(answer.path))
			.flatMap((answer) => answer.body.entries.map((entry: IDataObject) => entry.id));
		expect(new Set(read)).toEqual(new Set(ids));
		expect(storedData(sandbox(), id)).toEqual(input);
	});
});

describe('Entry → Sync: the size of a commit', () => {
	const columns = 40;
	/** A row of about `bytes` of JSON: many short columns of every kind, so names and quotes count. */
	function wideRow(n: number, bytes: number): IDataObject {
		const row: IDataObject = { Email: `w${n}@x.io`, Flag: n % 2 === 0, None: null, N: n };
		row.Nested = { list: [n, `${n}`], at: { n } };
		const text = Math.max(1, Math.floor(bytes / columns) - 12);
		for (let column = 0; column < columns; column++) {
			row[`c${column}`] = String(column % 10).repeat(text);
		}
		return row;
	}

	it('keeps every commit under the byte cap, fills each before starting the next, and stores every row', async () => {
		const id = await dataSourceWith(sandbox(), []);
		// Fewer rows than half the largest chunk size: only the byte cap can split them.
		const count = Math.floor(MAX_CHUNK_SIZE / 2);
		const rowBytes = Math.ceil((2.5 * MAX_COMMIT_BYTES) / count);
		const input = Array.from({ length: count }, (_, n) => wideRow(n, rowBytes));
		const result = await runSync(sandbox(), id, input, {
			syncOptions: { chunkSize: MAX_CHUNK_SIZE },
		});

		expect(result.error).toBeUndefined();
		const commits = commitsOf(sandbox());
		expect(commits.length).toBeGreaterThan(1);
		expect(result.json[0]).toMatchObject({ inserted: count, commits: commits.length });
		for (const commit of commits) expect(commit.bytes).toBeLessThanOrEqual(MAX_COMMIT_BYTES);
		// Every commit but the last was full: the next row would not have fitted. Row sizes are
		// estimated without serializing (never under the real size), so allow 1% of the cap.
		for (const commit of commits.slice(0, -1))
			expect(commit.bytes).toBeGreaterThan(0.99 * MAX_COMMIT_BYTES - 2 * rowBytes);
		const sent = commits.flatMap((commit) => commit.body.entries);
		expect(sent.map((entry: IDataObject) => (entry.data as IDataObject).N)).toEqual(
			input.map((_, n) => n),
		);
		expect(storedData(sandbox(), id)).toHaveLength(count);
	});

	it('sends a row larger than the cap in a commit of its own, and no empty commit', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const huge = { Email: 'huge@x.io', Text: 'x'.repeat(MAX_COMMIT_BYTES + 1024) };
		const input = [huge, { Email: 'a@x.io' }, { Email: 'b@x.io' }];
		const result = await runSync(sandbox(), id, input);

		expect(result.error).toBeUndefined();
		expect(commitsOf(sandbox()).map((commit) => commit.body.entries.length)).toEqual([1, 2]);
		expect(storedData(sandbox(), id)).toEqual(input);
	});
});
