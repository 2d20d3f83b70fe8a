import { setSandboxReadings, SYNC_READINGS, useSandbox } from '../harness';
import {
	commitsOf,
	dataSourceWith,
	queriesOf,
	READ_PATHS,
	runSync,
	storedData,
	useReadPath,
} from './fixtures';

const sandbox = useSandbox();

const stored = [
	{ Email: 'a@x.io', Name: 'Ann', Age: 30 },
	{ Email: 'b@x.io', Name: 'Bob', Age: 40 },
];

// The platform's sources disagree on how `attributes` and `where` name columns, and on how
// `oneof` compares: Sync must be right under each reading the evidence allows, whichever way it
// reads (docs/api-choices.md, "Where the witnesses disagree").
const readingsAndPaths = SYNC_READINGS.flatMap((readings) =>
	READ_PATHS.map((path) => ({ ...readings, path })),
);

describe.each(readingsAndPaths)(
	'Entry → Sync with attributes read $attributes, where read $where, oneof read $oneof, the $path read',
	({ path, ...readings }) => {
		useReadPath(path);
		beforeEach(() => setSandboxReadings(sandbox(), readings));

		it('matches the stored entries: an unchanged input changes nothing, a changed row is one update', async () => {
			const id = await dataSourceWith(sandbox(), stored);
			const rows = [{ ...stored[0] }, { ...stored[1], Age: 41 }];
			const result = await runSync(sandbox(), id, rows);

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
			expect(storedData(sandbox(), id)).toEqual([stored[0], { ...stored[1], Age: 41 }]);
			// The read names only the compared columns, in the form this reading takes.
			const named = queriesOf(sandbox()).at(-1)!.body.attributes;
			expect(named).toEqual(
				readings.attributes === 'bare'
					? ['Email', 'Name', 'Age']
					: ['id', 'data.Email', 'data.Name', 'data.Age'],
			);
		});

		it('mirror mode deletes only the entry whose key is gone, and inserts only the new key', async () => {
			const id = await dataSourceWith(sandbox(), stored);
			const rows = [{ ...stored[0] }, { Email: 'c@x.io', Name: 'Cy', Age: 22 }];
			const result = await runSync(sandbox(), id, rows, { syncMode: 'mirror' });

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 1, deleted: 1, unchanged: 1 });
			expect(storedData(sandbox(), id)).toEqual([stored[0], rows[1]]);
		});

		it('keys on numbers and on booleans stored as text, and on text stored as numbers', async () => {
			const rows = [
				{ Code: 5, Name: 'five' },
				{ Code: '7', Name: 'seven' },
				{ Code: true, Name: 'yes' },
				{ Code: 'Ann', Name: 'ann' },
			];
			const id = await dataSourceWith(sandbox(), rows);
			const input = [
				{ Code: '5', Name: 'FIVE' },
				{ Code: 7, Name: 'SEVEN' },
				{ Code: 'true', Name: 'YES' },
				// Another key, case kept: "Ann" is not "ANN".
				{ Code: 'ANN', Name: 'new' },
			];
			const result = await runSync(sandbox(), id, input, { keyColumns: 'Code' });

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 1, updated: 3, unchanged: 0 });
			// Text equal to a stored number or boolean once typed leaves it as stored; the number 7
			// over the text "7" is a new value.
			expect(storedData(sandbox(), id)).toEqual([
				{ Code: 5, Name: 'FIVE' },
				{ Code: 7, Name: 'SEVEN' },
				{ Code: true, Name: 'YES' },
				rows[3],
				input[3],
			]);
		});

		it('keys on a column named "id" (not the entry ID) in either reading', async () => {
			const rows = [
				{ id: 'A1', Name: 'Ann' },
				{ id: 'B2', Name: 'Bob' },
			];
			const id = await dataSourceWith(sandbox(), rows);
			const result = await runSync(sandbox(), id, [{ id: 'A1', Name: 'Anna' }, rows[1]], {
				keyColumns: 'id',
			});

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
			expect(storedData(sandbox(), id)).toEqual([{ id: 'A1', Name: 'Anna' }, rows[1]]);
		});

		it('reads whole entries (no attributes) when rows replace the data', async () => {
			const id = await dataSourceWith(sandbox(), stored);
			const rows = [{ Email: 'a@x.io', Name: 'Ann' }, stored[1]];
			const result = await runSync(sandbox(), id, rows, {
				syncOptions: { updateStyle: 'replace' },
			});

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ updated: 1, unchanged: 1 });
			expect(queriesOf(sandbox()).every((query) => query.body.attributes === undefined)).toBe(true);
			expect(storedData(sandbox(), id)).toEqual([{ Email: 'a@x.io', Name: 'Ann' }, stored[1]]);
		});
	},
);

describe('Entry → Sync: the reading of attributes is learned once per execution', () => {
	it('asks a page again in the bare form and keeps that form for the pages after it', async () => {
		setSandboxReadings(sandbox(), { attributes: 'bare' });
		const many = Array.from({ length: 12_000 }, (_, n) => ({ Email: `u${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), many);
		const result = await runSync(sandbox(), id, many);

		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 12_000 });
		const queries = queriesOf(sandbox()).map((query) => ({
			form: query.body.attributes[0] === 'id' ? 'prefixed' : 'bare',
			offset: query.body.offset,
		}));
		const prefixed = queries.filter((query) => query.form === 'prefixed');
		const bare = queries.filter((query) => query.form === 'bare');
		// Only the pages that left before the first answer taught the form go in SPEC's form (a
		// read's first pages travel together), and each of them is asked again in the bare one.
		expect(queries[0].form).toBe('prefixed');
		expect(prefixed.length).toBeLessThanOrEqual(3);
		const bareOffsets = new Set(bare.map((query) => query.offset));
		for (const query of prefixed) expect(bareOffsets.has(query.offset)).toBe(true);
		expect(bare.length).toBe(3);
		const firstBare = queries.findIndex((query) => query.form === 'bare');
		expect(queries.slice(firstBare + prefixed.length).every((q) => q.form === 'bare')).toBe(true);
		expect(commitsOf(sandbox())).toHaveLength(0);
	});
});

describe.each(READ_PATHS)(
	'Entry → Sync (the %s read): a read where no entry has a key column',
	(path) => {
		useReadPath(path);

		it('stops before any commit when the API answers every entry without the key columns', async () => {
			const id = await dataSourceWith(sandbox(), stored);
			// An answer that dropped the columns asked for: every entry without Email.
			sandbox().injectFault({
				mode: 'status-after',
				status: 200,
				count: 2,
				method: 'POST',
				path: '/data/query$',
				body: {
					entries: [
						{ id: 1, data: {} },
						{ id: 2, data: {} },
					],
					pagination: { total: 2 },
				},
			});
			const result = await runSync(sandbox(), id, stored, { syncMode: 'mirror' });

			expect(result.error?.message).toBe('None of the 2 entries read has the key column "Email"');
			expect(result.error?.description).toMatch(/^Nothing was changed\. Acting on this read/);
			expect(commitsOf(sandbox())).toHaveLength(0);
			expect(storedData(sandbox(), id)).toEqual(stored);
		});

		it('stops on a key column that no stored entry has (a misspelt key), in upsert mode too', async () => {
			const id = await dataSourceWith(sandbox(), stored);
			const result = await runSync(sandbox(), id, [{ email: 'a@x.io', Name: 'Ann' }], {
				keyColumns: 'email',
			});

			expect(result.error?.message).toBe('None of the 2 entries read has the key column "email"');
			expect(commitsOf(sandbox())).toHaveLength(0);
			expect(storedData(sandbox(), id)).toEqual(stored);
		});

		it('goes on when one entry has a key column, even an empty one, and when the data source is empty', async () => {
			const id = await dataSourceWith(sandbox(), [
				{ Name: 'No key' },
				{ Email: '', Name: 'Empty' },
			]);
			const keyed = await runSync(sandbox(), id, [{ Email: 'a@x.io' }]);
			expect(keyed.error).toBeUndefined();
			expect(keyed.json[0]).toMatchObject({ inserted: 1 });

			const empty = await dataSourceWith(sandbox(), [], 'Empty Target');
			const first = await runSync(sandbox(), empty, stored);
			expect(first.error).toBeUndefined();
			expect(first.json[0]).toMatchObject({ inserted: 2 });
		});

		it('with two key columns, an entry carrying one of them is enough, wherever it comes in the read', async () => {
			const id = await dataSourceWith(sandbox(), [{ Email: 'a@x.io' }, { Name: 'No key' }]);
			const result = await runSync(sandbox(), id, [{ Email: 'b@x.io', Dept: 'Ops' }], {
				keyColumns: 'Email, Dept',
			});
			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 1 });
		});

		it('names every key column when none is found', async () => {
			const id = await dataSourceWith(sandbox(), [{ Name: 'No key' }, { Name: 'Nor here' }]);
			const result = await runSync(sandbox(), id, [{ Email: 'b@x.io', Dept: 'Ops' }], {
				keyColumns: 'Email, Dept',
			});
			expect(result.error?.message).toBe(
				'None of the 2 entries read has the key columns "Email", "Dept"',
			);
			expect(commitsOf(sandbox())).toHaveLength(0);
		});
	},
);
