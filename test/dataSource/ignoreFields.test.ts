import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../harness';
import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();
const STAFF = { __rl: true, mode: 'id', value: '100' };
const autoMap = { mappingMode: 'autoMapInputData', value: null };

const stored = (id: unknown) =>
	sandbox().state.entries.find((entry: { id: unknown }) => entry.id === id).data;

const hintsOf = (result: RunResult) =>
	result.run.data.resultData.runData['Under Test'][0].hints ?? [];

function write(
	operation: 'insert' | 'update',
	input: IDataObject[],
	extra: Record<string, unknown> = {},
) {
	return runNode({
		parameters: {
			resource: 'entry',
			operation,
			dataSource: STAFF,
			columns: autoMap,
			...(operation === 'update' ? { entryId: '201' } : {}),
			...extra,
		},
		input: input.map((json) => ({ json })),
		credentials: sandboxCredential(sandbox()),
	});
}

describe('Ignore Fields: input fields Map Automatically leaves out', () => {
	it('Create writes every other field, comma-separated names trimmed', async () => {
		const result = await write('insert', [{ Name: 'Gail', Secret: 's3', Notes: 'x', id: 7 }], {
			options: { ignoreFields: 'Secret , Notes' },
		});
		expect(result.error).toBeUndefined();
		const [sent] = apiRequests(sandbox(), /\/v1\/data-sources\/100\/data$/);
		expect(sent.body).toEqual({ Name: 'Gail', id: 7 });
		expect(stored(result.json[0].id)).toEqual({ Name: 'Gail', id: 7 });
	});

	it('Update takes a list from an expression, where a name may hold a comma', async () => {
		const result = await write('update', [{ Department: 'Ops', 'Cost, Centre': 12, Notes: 'x' }], {
			options: { ignoreFields: '={{ ["Cost, Centre", "Notes"] }}' },
		});
		expect(result.error).toBeUndefined();
		expect(stored(201)).toMatchObject({ Department: 'Ops' });
		expect(stored(201)).not.toHaveProperty('Notes');
		expect(stored(201)).not.toHaveProperty(['Cost, Centre']);
	});

	it('Create or Update leaves them out of what it writes, and its output', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'upsert',
				dataSource: STAFF,
				columns: { ...autoMap, matchingColumns: ['Email'] },
				options: { ignoreFields: 'row_number, Secret' },
			},
			input: [
				{ json: { Email: 'bob@example.com', Department: 'Ops', Secret: 's', row_number: 2 } },
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([
			{ id: 201, action: 'update', data: { Email: 'bob@example.com', Department: 'Ops' } },
		]);
		expect(stored(201)).toMatchObject({ Email: 'bob@example.com', Department: 'Ops' });
		expect(stored(201)).not.toHaveProperty('Secret');
		expect(stored(201)).not.toHaveProperty('row_number');
	});

	it('a field listed that the item does not have changes nothing', async () => {
		const result = await write('insert', [{ Name: 'Hal' }], {
			options: { ignoreFields: 'Missing' },
		});
		expect(stored(result.json[0].id)).toEqual({ Name: 'Hal' });
	});
});

describe('an input item shaped as an entry (Get Many → Create)', () => {
	const entry = {
		id: 201,
		dataSourceId: 100,
		createdAt: '2026-01-01T00:00:00.000Z',
		updatedAt: '2026-01-02T00:00:00.000Z',
		data: { Name: 'Bob Stone', Department: 'Sales' },
	};

	it('is written as given, with a hint in the output pane on how to copy the columns', async () => {
		const result = await write('insert', [entry, { Name: 'Plain' }]);
		expect(result.error).toBeUndefined();
		// The item's fields are the user's: nothing dropped, nothing renamed.
		expect(stored(result.json[0].id)).toEqual(entry);
		expect(hintsOf(result)).toEqual([
			expect.objectContaining({
				location: 'outputPane',
				message: expect.stringMatching(
					/^1 of 2 input items are entries as Get and Get Many output them.*Output to Columns Only.*under data/,
				),
			}),
		]);
	});

	it('Update and Create or Update give the same hint', async () => {
		const update = await write('update', [entry]);
		expect(update.error).toBeUndefined();
		const upsert = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'upsert',
				dataSource: STAFF,
				columns: { ...autoMap, matchingColumns: ['id'] },
			},
			input: [{ json: entry }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(upsert.error).toBeUndefined();
		for (const result of [update, upsert]) {
			expect(hintsOf(result)).toEqual([
				expect.objectContaining({ message: expect.stringMatching(/^The input items are entries/) }),
			]);
		}
	});

	it('no hint for plain rows, for mapped columns, or when Ignore Fields leaves data out', async () => {
		const plain = await write('insert', [{ Name: 'Ivy', data: { nested: true } }]);
		expect(hintsOf(plain)).toEqual([]);
		const mapped = await write('insert', [entry], {
			columns: { mappingMode: 'defineBelow', value: { Name: '={{ $json.data.Name }}' } },
		});
		expect(stored(mapped.json[0].id)).toEqual({ Name: 'Bob Stone' });
		expect(hintsOf(mapped)).toEqual([]);
		const ignored = await write('insert', [entry], {
			options: { ignoreFields: 'data, createdAt, updatedAt' },
		});
		expect(hintsOf(ignored)).toEqual([]);
	});
});
