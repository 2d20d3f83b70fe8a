/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RERUN_IS_SAFE } from '../../nodes/Fliplet/actions/entry/sync/summary';
import { apiRequests, useSandbox } from '../harness';
import { TestInput } from '../harness/testInput.node';
import {
	commitsOf,
	dataSourceWith,
	failNthCommit,
	queriesOf,
	runSync,
	storedData,
} from './fixtures';

const sandbox = useSandbox();

/** Text the input node turns into a number JSON cannot carry (as a Code node upstream could emit). */
const NOT_FINITE: Record<string, number> = {
	'<NaN>': Number.NaN,
	'<Infinity>': Number.POSITIVE_INFINITY,
};

/** The input node emits NaN and Infinity where a row holds their placeholder text. */
function emitNonFiniteNumbers() {
	const emit = TestInput.prototype.execute;
	jest.spyOn(TestInput.prototype, 'execute').mockImplementation(async function (this: any) {
		const [items] = (await emit.call(this)) as INodeExecutionData[][];
		const revive = (json: IDataObject): IDataObject =>
			Object.fromEntries(
				Object.entries(json).map(([column, value]) => [
					column,
					typeof value === 'string' && value in NOT_FINITE ? NOT_FINITE[value] : value,
				]),
			);
		return [items.map((item) => ({ ...item, json: revive(item.json) }))];
	});
}

afterEach(() => jest.restoreAllMocks());

const people = [
	{ Email: 'a@x.io', Name: 'Ann' },
	{ Email: 'b@x.io', Name: 'Bob' },
];

describe('Entry → Sync: checks of the options', () => {
	it.each([
		[-1, 'Max Deletes -1 is not allowed'],
		[1.5, 'Max Deletes 1.5 is not allowed'],
	])('refuses Max Deletes %s before any request', async (maxDeletes, message) => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, people, {
			syncMode: 'mirror',
			syncOptions: { maxDeletes },
		});
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toBe('Give a whole number of entries (0 or more).');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('takes Max Deletes 0: a mirror that deletes nothing runs, one that deletes an entry is refused', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const none = await runSync(sandbox(), id, people, {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 0 },
		});
		expect(none.error).toBeUndefined();
		expect(none.json[0]).toMatchObject({ unchanged: 2, deleted: 0 });

		const one = await runSync(sandbox(), id, [people[0]], {
			syncMode: 'mirror',
			syncOptions: { maxDeletes: 0 },
		});
		expect(one.error?.message).toBe(
			'Mirror would delete 1 of 2 entries (50%); Max Deletes (Entries) is 0',
		);
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it.each([-1, 100.5, 101])('refuses Max Deletes (%%) %s before any request', async (share) => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, people, {
			syncMode: 'mirror',
			syncOptions: { maxDeleteShare: share },
		});
		expect(result.error?.message).toBe(`Max Deletes (%) ${share} is not allowed`);
		expect(result.error?.description).toBe('Give a percentage from 0 to 100.');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it.each([
		[0, 1, false],
		[12.5, 1, false],
		[100, 2, true],
	])(
		'takes Max Deletes (%%) %s: a mirror deleting %s of 2 entries runs only within it',
		async (share, deletes, allowed) => {
			const id = await dataSourceWith(sandbox(), people);
			const unchanged = await runSync(sandbox(), id, people, {
				syncMode: 'mirror',
				syncOptions: { maxDeleteShare: share },
			});
			expect(unchanged.error).toBeUndefined();
			expect(unchanged.json[0]).toMatchObject({ unchanged: 2 });

			const kept = deletes === 2 ? [{ Email: 'z@x.io' }] : [people[1]];
			const result = await runSync(sandbox(), id, kept, {
				syncMode: 'mirror',
				allowEmpty: true,
				syncOptions: { maxDeleteShare: share },
			});
			if (allowed) {
				expect(result.error).toBeUndefined();
				expect(result.json[0]).toMatchObject({ deleted: deletes });
			} else {
				expect(result.error?.message).toBe(
					`Mirror would delete 1 of 2 entries (50%); Max Deletes (% of Entries) is ${share}%`,
				);
			}
		},
	);

	it('refuses a delete flag column that is also a key column', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, people, {
			keyColumns: 'Name, Email',
			syncOptions: { deleteColumn: ' Email ' },
		});
		expect(result.error?.message).toBe('"Email" is both a key column and the delete flag column');
		expect(result.error?.description).toBe(
			'The delete flag column says whether the row with that key should go: pick another column.',
		);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('takes a blank Delete Flag Column as not set, and trims a padded one', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const blank = await runSync(sandbox(), id, people, { syncOptions: { deleteColumn: '   ' } });
		expect(blank.error).toBeUndefined();
		expect(blank.json[0]).not.toHaveProperty('flaggedAbsent');

		const padded = await runSync(sandbox(), id, [{ ...people[0], Gone: true }, people[1]], {
			syncOptions: { deleteColumn: ' Gone ' },
		});
		expect(padded.json[0]).toMatchObject({ deleted: 1, flaggedAbsent: 0 });
		expect(storedData(sandbox(), id)).toEqual([people[1]]);
	});

	it('takes a blank Timestamp Column as not set, and trims a padded one', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann', At: 5 }]);
		const blank = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Anna' }], {
			syncOptions: { timestampColumn: ' ' },
		});
		expect(blank.json[0]).toMatchObject({ updated: 1, skipped: [] });

		const padded = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Old', At: 4 }], {
			syncOptions: { timestampColumn: ' At ' },
		});
		expect(padded.json[0]).toMatchObject({ updated: 0, unchanged: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', Name: 'Anna', At: 5 }]);
	});

	it('merges a row into its entry unless Update Style is replace', async () => {
		const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io', Name: 'Ann', Age: 30 }]);
		const merged = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Ann' }], {
			syncOptions: {},
		});
		expect(merged.json[0]).toMatchObject({ updated: 0, unchanged: 1 });

		const replaced = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Ann' }], {
			syncOptions: { updateStyle: 'replace' },
		});
		expect(replaced.json[0]).toMatchObject({ updated: 1, unchanged: 0 });
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', Name: 'Ann' }]);
	});
});

describe('Entry → Sync: rows holding a number JSON cannot carry', () => {
	beforeEach(emitNonFiniteNumbers);

	const rows = [
		{ Email: 'a@x.io', Score: 1 },
		{ Email: 'n@x.io', Score: '<NaN>' },
		{ Email: 'i@x.io', Score: 2, Rank: '<Infinity>' },
	];
	const DESCRIPTION =
		'JSON (what the API stores) has no such value: it would arrive as null or not at all. Change the value (e.g. to text or null) with an Edit Fields node. Nothing was changed.';

	it('stops the run at the first, naming its item and column, before any request', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, rows);
		expect(result.error?.message).toBe(
			'Item 1: column "Score" holds the number NaN, which cannot be stored',
		);
		expect(result.error?.description).toBe(DESCRIPTION);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('with Continue On Fail each becomes an error item and the other rows sync', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const result = await runSync(sandbox(), id, rows, {}, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 1, skipped: [] });
		expect(result.items.slice(1)).toEqual([
			expect.objectContaining({
				json: {
					error: 'Item 1: column "Score" holds the number NaN, which cannot be stored',
					description: DESCRIPTION,
				},
				pairedItem: { item: 1 },
			}),
			expect.objectContaining({
				json: {
					error: 'Item 2: column "Rank" holds the number Infinity, which cannot be stored',
					description: DESCRIPTION,
				},
				pairedItem: { item: 2 },
			}),
		]);
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', Score: 1 }]);
	});

	it('with Continue On Fail, when every row is refused, the run writes nothing and reports only them', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, rows.slice(1), {}, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 0, skipped: [] });
		expect(result.json.slice(1).map((json) => json.error)).toEqual([
			'Item 0: column "Score" holds the number NaN, which cannot be stored',
			'Item 1: column "Rank" holds the number Infinity, which cannot be stored',
		]);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('with Continue On Fail, when no other row has a key, the run is refused for the missing key', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[{ Mail: 'x@x.io' }, rows[1]],
			{},
			{ continueOnFail: true },
		);
		expect(result.json).toEqual([
			{
				error: 'No input row has a value in the key column "Email"',
				description: expect.stringMatching(/^The rows have the columns "Mail"\. /),
			},
		]);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});

	it('in mirror mode refuses the whole run even with Continue On Fail, saying why', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			[people[0], { ...people[1], Score: '<NaN>' }],
			{ syncMode: 'mirror' },
			{ continueOnFail: true },
		);
		expect(result.json).toEqual([
			{
				error: 'Item 1: column "Score" holds the number NaN, which cannot be stored',
				description: `${DESCRIPTION} Mirror mode needs every row (a row left out would have its entry deleted), so the whole run was refused.`,
			},
		]);
		expect(apiRequests(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toEqual(people);
	});
});

describe('Entry → Sync: refusing rows without a key', () => {
	it('names the key columns (plural) and every column the rows have', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [{ Mail: 'x@x.io' }, { Name: 'X', Mail: '' }], {
			keyColumns: 'Email, Name',
		});
		expect(result.error?.message).toBe(
			'No input row has a value in the key columns "Email", "Name"',
		);
		expect(result.error?.description).toBe(
			'The rows have the columns "Mail", "Name". Column names are case-sensitive: set "Key Columns" to the column that identifies a row, or fill it in the input. Nothing was changed.',
		);
	});

	it('says the rows have no columns when they are empty', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [{}, {}]);
		expect(result.error?.message).toBe('No input row has a value in the key column "Email"');
		expect(result.error?.description).toMatch(/^The rows have no columns\. Column names/);
	});

	const columns = (count: number) =>
		Object.fromEntries(Array.from({ length: count }, (_, n) => [`C${n}`, n]));
	const listed = (count: number) => Array.from({ length: count }, (_, n) => `"C${n}"`).join(', ');

	it('lists up to 30 columns', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [columns(30)]);
		expect(result.error?.description).toMatch(
			new RegExp(`^The rows have the columns ${listed(30)}\\. Column names`),
		);
	});

	it('lists the first 30 columns and counts the others', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [columns(20), { ...columns(32), Z: 1 }]);
		expect(result.error?.description).toMatch(
			new RegExp(`^The rows have the columns ${listed(30)} and 3 more\\. Column names`),
		);
	});
});

describe('Entry → Sync: refusing to empty the data source', () => {
	it('says how many input rows had no existing key', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [{ Email: 'x@x.io' }, { Email: 'y@x.io' }], {
			syncMode: 'mirror',
		});
		expect(result.error?.message).toBe('Mirror would delete all 2 entries of the data source');
		expect(result.error?.description).toBe(
			'None of the 2 input rows has the key of an existing entry. Check the key columns (their names are case-sensitive) and the input. If the data source really should be emptied or fully replaced, turn on "Allow Emptying the Data Source". Nothing was changed.',
		);
	});

	it('says how many rows were skipped when none has a usable key', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [{ Email: 'x@x.io' }, { Email: 'x@x.io' }], {
			syncMode: 'mirror',
		});
		expect(result.error?.description).toMatch(/^No input row has a usable key \(2 skipped\)\. /);
		expect(storedData(sandbox(), id)).toEqual(people);
	});

	it('applies only to mirror: flagging every entry for deletion otherwise deletes them', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(
			sandbox(),
			id,
			people.map((row) => ({ ...row, Gone: 'yes' })),
			{ syncOptions: { deleteColumn: 'Gone', maxDeletes: 0, maxDeleteShare: 0 } },
		);
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 2 });
		expect(storedData(sandbox(), id)).toEqual([]);
	});
});

describe('Entry → Sync: the mirror delete guard', () => {
	const rows = Array.from({ length: 10 }, (_, n) => ({ Email: `p${n}@x.io` }));
	// Six rows kept, two of them flagged: 2 flagged deletes and 4 entries absent from the input.
	const input = rows.slice(0, 6).map((row, n) => (n < 2 ? { ...row, Gone: true } : row));

	it.each([
		['Max Deletes', { maxDeletes: 4 }],
		['Max Deletes (%)', { maxDeleteShare: 40 }],
	])('%s counts only the entries no row flagged', async (_name, limit) => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, input, {
			syncMode: 'mirror',
			syncOptions: { deleteColumn: 'Gone', ...limit },
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ deleted: 6 });
		expect(storedData(sandbox(), id)).toEqual(rows.slice(2, 6));
	});

	it('a share within Max Deletes (%) is still refused when over Max Deletes', async () => {
		const id = await dataSourceWith(sandbox(), rows);
		const result = await runSync(sandbox(), id, input, {
			syncMode: 'mirror',
			syncOptions: { deleteColumn: 'Gone', maxDeletes: 3, maxDeleteShare: 100 },
		});
		expect(result.error?.message).toBe(
			'Mirror would delete 4 of 10 entries (40%); Max Deletes (Entries) is 3',
		);
		expect(result.error?.description).toBe(
			'Nothing was changed. Entries are deleted when their key is not among the input rows: check that the input holds every row (a filter or an empty sheet upstream?) and the key columns. If these entries really should go, raise "Max Deletes (Entries)" to at least 4, or run with "Dry Run" first to see them.',
		);
	});
});

describe('Entry → Sync: failures after the plan', () => {
	it('a commit redirected elsewhere is not given the advice of a refusal', async () => {
		const id = await dataSourceWith(sandbox(), []);
		sandbox().injectFault({
			mode: 'status-before',
			status: 307,
			headers: { location: 'https://elsewhere.example/commit' },
			method: 'POST',
			path: '/commit$',
		});
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);
		expect(result.error?.message).toMatch(/^Sync stopped at commit 1 of 1 \(insert of 1 rows\): /);
		expect(result.error?.description).toBe(`None of the 1 commits had landed. ${RERUN_IS_SAFE}`);
	});

	it('a refused commit passes on the API advice; after a server failure the keys are read and the row sent again', async () => {
		const id = await dataSourceWith(sandbox(), []);
		failNthCommit(sandbox(), 1, 422);
		const refused = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);
		expect(refused.error?.description).toBe(
			`None of the 1 commits had landed. ${RERUN_IS_SAFE} The API refused the request: check the fields of this item.`,
		);

		failNthCommit(sandbox(), 1, 500);
		const failed = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);
		expect(failed.error).toBeUndefined();
		expect(failed.json[0]).toMatchObject({
			inserted: 1,
			recovered: { commits: 1, rowsFound: 0, rowsResent: 1 },
		});
		expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io' }]);
	});

	it('an update-only run checks no key for duplicates', async () => {
		const id = await dataSourceWith(sandbox(), people);
		const result = await runSync(sandbox(), id, [{ Email: 'a@x.io', Name: 'Anna' }]);
		expect(result.json[0]).toMatchObject({ updated: 1, duplicatesRemoved: 0 });
		expect(queriesOf(sandbox()).filter((query) => query.body.aggregate)).toHaveLength(0);
	});

	it('a failing duplicate check after inserts says the rows were written', async () => {
		const id = await dataSourceWith(sandbox(), people);
		// The duplicate check of the new keys: the query with an aggregate.
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'Aggregation refused' },
			method: 'POST',
			path: '/data/query$',
			match: (body) => body?.aggregate !== undefined,
		});
		const result = await runSync(sandbox(), id, [{ Email: 'x@x.io' }, { Email: 'y@x.io' }]);
		expect(result.error?.message).toBe(
			'Sync wrote its rows, but checking the keys for duplicates failed: Aggregation refused',
		);
		expect(result.error?.description).toBe(
			'2 rows were inserted. Another run of Sync inserting the same keys at the same time could have left a key on two entries; this run could not check. Run Sync again with the same input when the cause is fixed: it inserts nothing twice, and a key it finds on several entries keeps only one. The API refused the request: check the fields of this item.',
		);
		expect(storedData(sandbox(), id)).toHaveLength(4);
	});
});
