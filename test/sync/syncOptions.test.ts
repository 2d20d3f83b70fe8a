/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { useSandbox } from '../harness';
import { commitsOf, dataSourceWith, runSync, storedData } from './fixtures';

const sandbox = useSandbox();

describe('Entry → Sync options of the platform agent', () => {
	it('Timestamp Column: a matched row updates its entry only when its time is newer', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', Name: 'Ann', Modified: '2026-03-01T10:00:00Z' },
			{ Email: 'b@x.io', Name: 'Bob', Modified: '2026-03-01T10:00:00Z' },
			{ Email: 'c@x.io', Name: 'Cy', Modified: 5 },
		]);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'a@x.io', Name: 'Ann (older copy)', Modified: '2026-02-01T10:00:00Z' },
				{ Email: 'b@x.io', Name: 'Bob (newer)', Modified: '2026-03-02T10:00:00Z' },
				{ Email: 'c@x.io', Name: 'Cy (same time)', Modified: 5 },
				{ Email: 'd@x.io', Name: 'Dee (no time, new)' },
			],
			{ syncOptions: { timestampColumn: 'Modified' } },
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ updated: 1, unchanged: 2, inserted: 1 });
		expect(storedData(sandbox(), id).map((row) => row.Name)).toEqual([
			'Ann',
			'Bob (newer)',
			'Cy',
			'Dee (no time, new)',
		]);

		const unreadable = await runSync(
			sandbox(),
			id,
			[{ Email: 'a@x.io', Name: 'Ann?', Modified: 'someday' }],
			{ syncOptions: { timestampColumn: 'Modified' } },
		);
		expect(unreadable.json[0]).toMatchObject({
			updated: 0,
			skipped: [{ itemIndex: 0, reason: 'No readable time in timestamp column "Modified"' }],
		});
	});

	it('Delete Flag Column: flagged rows delete their entry, or are left out when absent', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', Name: 'Ann' },
			{ Email: 'b@x.io', Name: 'Bob' },
		]);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'a@x.io', Name: 'Ann', Deleted: 'TRUE' },
				{ Email: 'b@x.io', Name: 'Bob', Deleted: false },
				{ Email: 'z@x.io', Name: 'Zed', Deleted: 1 },
			],
			{ syncOptions: { deleteColumn: 'Deleted' } },
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 1, inserted: 0, flaggedAbsent: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'b@x.io', Name: 'Bob', Deleted: false }]);
	});

	it('Update Every Matched Row sends every matched row without comparing, reading only the keys', async () => {
		const id = await dataSourceWith(sandbox(), [
			{ Email: 'a@x.io', Name: 'Ann' },
			{ Email: 'b@x.io', Name: 'Bob' },
		]);
		const result = await runSync(
			sandbox(),
			id,
			[
				{ Email: 'a@x.io', Name: 'Ann' },
				{ Email: 'b@x.io', Name: 'Bob' },
			],
			{ syncOptions: { updateAll: true } },
		);
		expect(result.json[0]).toMatchObject({ updated: 2, unchanged: 0 });
		// Nothing was compared, so each update sends its whole row.
		expect(commitsOf(sandbox())[0].body.entries.map((entry: any) => entry.data)).toEqual([
			{ Email: 'a@x.io', Name: 'Ann' },
			{ Email: 'b@x.io', Name: 'Bob' },
		]);
	});

	it('the delete guard refuses a mirror that would delete too many entries, saying how to allow it', async () => {
		const rows = Array.from({ length: 10 }, (_, n) => ({ Email: `p${n}@x.io` }));
		const id = await dataSourceWith(sandbox(), rows);
		const byCount = await runSync(sandbox(), id, rows.slice(0, 6), {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 3 },
		});
		expect(byCount.error?.message).toBe(
			'Mirror would delete 4 of 10 entries (40%); Max Deletes (Entries) is 3',
		);
		expect(byCount.error?.description).toContain('raise "Max Deletes (Entries)" to at least 4');
		expect(commitsOf(sandbox())).toHaveLength(0);

		const byShare = await runSync(sandbox(), id, rows.slice(0, 6), {
			syncMode: 'mirror',
			syncOptions: { maxDeleteShare: 25 },
		});
		expect(byShare.error?.message).toBe(
			'Mirror would delete 4 of 10 entries (40%); Max Deletes (% of Entries) is 25%',
		);
		expect(byShare.error?.description).toContain('to at least 40');
		expect(storedData(sandbox(), id)).toHaveLength(10);

		const allowed = await runSync(sandbox(), id, rows.slice(0, 6), {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 4, maxDeleteShare: 40 },
		});
		expect(allowed.json[0]).toMatchObject({ deleted: 4 });
		expect(storedData(sandbox(), id)).toEqual(rows.slice(0, 6));
	});
});
