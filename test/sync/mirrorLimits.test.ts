import { commitsOf, dataSourceWith, runSync, storedData } from './fixtures';
import { useSandbox } from '../harness';

const sandbox = useSandbox();

const rows = Array.from({ length: 10 }, (_, n) => ({ Email: `p${n}@x.io` }));

describe('Entry → Sync: the Mirror delete limits as fields', () => {
	it('a limit set as an option, where workflows set it before, still holds', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, rows.slice(0, 8), {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 1 },
		});
		expect(result.error?.message).toBe(
			'Mirror would delete 2 of 10 entries (20%); Max Deletes (Entries) is 1',
		);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('the field wins over the option where both are set', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, rows.slice(0, 8), {
			syncMode: 'mirror',
			maxDeletes: 2,
			syncOptions: { maxDeletes: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 2 });
		expect(storedData(sandbox(), id)).toEqual(rows.slice(0, 8));
	});

	it('the fields refuse with their defaults: 6 of 10 entries is over 50%', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, rows.slice(0, 4), { syncMode: 'mirror' });
		expect(result.error?.message).toBe(
			'Mirror would delete 6 of 10 entries (60%); Max Deletes (% of Entries) is 50%',
		);
		expect(result.error?.description).toContain(
			'raise "Max Deletes (% of Entries)" to at least 60, or run with "Dry Run" first',
		);
		expect(storedData(sandbox(), id)).toHaveLength(10);
	});

	it('"Allow Emptying the Data Source" lets a run that deletes every entry past the limits', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const replacement = [{ Email: 'new@x.io' }];
		const refused = await runSync(sandbox(), id, replacement, { syncMode: 'mirror' });
		expect(refused.error?.message).toBe('Mirror would delete all 10 entries of the data source');

		const allowed = await runSync(sandbox(), id, replacement, {
			syncMode: 'mirror',
			allowEmpty: true,
		});
		expect(allowed.json[0]).toMatchObject({ deleted: 10, inserted: 1 });
		expect(storedData(sandbox(), id)).toEqual(replacement);
	});

	it('"Allow Emptying" does not lift the limits for a run that keeps some entries', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, rows.slice(0, 1), {
			syncMode: 'mirror',
			allowEmpty: true,
		});
		expect(result.error?.message).toBe(
			'Mirror would delete 9 of 10 entries (90%); Max Deletes (% of Entries) is 50%',
		);
		expect(storedData(sandbox(), id)).toHaveLength(10);
	});
});
