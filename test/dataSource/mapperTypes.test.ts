import type { INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { columnDefinition, sampledColumnTypes } from '../../nodes/Fliplet/helpers/columnTypes';
import {
	apiRequests,
	FLIPLET_NODE,
	loadOptionsContext,
	nodeTypes,
	runNode,
	sandboxCredential,
	useSandbox,
} from '../harness';
import { commitsOf, dataSourceWith, storedData } from '../sync/fixtures';

const sandbox = useSandbox();

const byName = (value: string) => ({ __rl: true, mode: 'name', value });

/** The mapper's fields as the editor loads them for a data source (methods/resourceMapping). */
async function mapperFields(
	dataSource: string,
	operation = 'insert',
	method = 'getDataSourceColumnsMapping',
): Promise<ResourceMapperField[]> {
	const context = loadOptionsContext({
		parameters: { resource: 'entry', operation, dataSource: byName(dataSource) },
		credentials: sandboxCredential(sandbox()),
		editing: true,
	});
	const methods = nodeTypes.getByName(FLIPLET_NODE).methods!;
	return (await methods.resourceMapping![method].call(context)).fields;
}

/** The Columns parameter as n8n stores it after the user typed values in the mapper. */
function storedColumns(value: Record<string, string>, schema: ResourceMapperField[]) {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	} as unknown as INodeParameters;
}

describe('Insert through the column mapper sends the types the data source holds', () => {
	it('types each column from the values its entries hold', async () => {
		const fields = await mapperFields('Staff');
		expect(fields.map((field) => [field.id, field.type])).toEqual([
			['Name', 'string'],
			['Email', 'string'],
			['Department', 'string'],
			['Age', 'number'],
			['Joined', 'string'],
			['Address', 'object'],
		]);
		const [sample] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data\/query$/);
		expect(sample.body).toEqual({ type: 'select', limit: 100 });
	});

	it('a number typed in the editor ("40") is sent as 40; text and JSON as the column holds them', async () => {
		const schema = await mapperFields('Staff');
		sandbox().requests.length = 0;
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: byName('Staff'),
				columns: storedColumns(
					{ Name: 'Zed Park', Age: '40', Joined: '2025-01-02', Address: '{"city":"Rome"}' },
					schema,
				),
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/Staff\/data$/);
		expect(request.body).toEqual({
			Name: 'Zed Park',
			Age: 40,
			Joined: '2025-01-02',
			Address: { city: 'Rome' },
		});
		expect(result.json[0].data).toEqual(request.body);
	});

	it('a column whose entries hold numbers as text stays text ("980" is sent as "980")', async () => {
		const schema = await mapperFields('2024');
		expect(schema.map((field) => [field.id, field.type])).toEqual([
			['Quarter', 'string'],
			['Revenue', 'string'],
		]);
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: '102' },
				columns: storedColumns({ Quarter: 'Q3', Revenue: '1010' }, schema),
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/102\/data$/)[0].body).toEqual({
			Quarter: 'Q3',
			Revenue: '1010',
		});
	});

	it('Create or Update offers every column to match on and writes the typed values by them', async () => {
		const schema = await mapperFields('Staff', 'upsert', 'getDataSourceColumnsToMatch');
		expect(schema.every((field) => field.canBeUsedToMatch)).toBe(true);
		expect(schema.find((field) => field.id === 'Age')?.type).toBe('number');
		sandbox().requests.length = 0;
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'upsert',
				dataSource: byName('Staff'),
				columns: {
					...storedColumns({ Email: 'bob@example.com', Age: '41' }, schema),
					matchingColumns: ['Email'],
				} as unknown as INodeParameters,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({
			action: 'update',
			data: { Email: 'bob@example.com', Age: 41 },
		});
		const [commit] = apiRequests(sandbox(), /^\/v1\/data-sources\/Staff\/commit$/);
		expect(commit.body.entries).toEqual([{ id: result.json[0].id, data: { Age: 41 } }]);
	});

	it('a number typed in the editor that is not one is refused by n8n before the node runs, naming the column', async () => {
		const schema = await mapperFields('Staff');
		sandbox().requests.length = 0;
		await expect(
			runNode({
				parameters: {
					resource: 'entry',
					operation: 'insert',
					dataSource: byName('Staff'),
					columns: storedColumns({ Name: 'Zed', Age: 'forty' }, schema),
				},
				credentials: sandboxCredential(sandbox()),
			}),
		).rejects.toThrow(/'Age' expects a number but we got 'forty'/);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/Staff\/data$/)).toHaveLength(0);
	});

	it('an expression giving text that is not JSON, in a column of objects, is refused naming the column', async () => {
		const schema = await mapperFields('Staff');
		sandbox().requests.length = 0;
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: byName('Staff'),
				columns: storedColumns({ Name: 'Zed', Address: '={{ $json.city }}' }, schema),
			},
			input: [{ json: { city: 'Rome' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Invalid value for column "Address"');
		expect(result.error?.description).toMatch(/^'Address' expects a object but we got 'Rome'/);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/Staff\/data$/)).toHaveLength(0);
	});
});

describe('Values mapped from a spreadsheet follow the column as Sync types them', () => {
	/** The cells of a CSV row (all text, or empty), each mapped by an expression to its column. */
	const cells = ['N', 'B', 'T'];
	const byExpression = Object.fromEntries(
		cells.map((column) => [column, `={{ $json.${column} }}`]),
	);

	/** A data source whose columns hold numbers (N), booleans (B) and text (T). */
	async function typedDataSource(): Promise<{ id: number; schema: ResourceMapperField[] }> {
		const id = await dataSourceWith(sandbox(), [{ Key: 'seed', N: 1, B: true, T: 'x' }], 'Typed');
		const schema = await mapperFields('Typed', 'upsert', 'getDataSourceColumnsToMatch');
		expect(schema.map((field) => [field.id, field.type])).toEqual(
			expect.arrayContaining([
				['N', 'number'],
				['B', 'boolean'],
				['T', 'string'],
			]),
		);
		sandbox().requests.length = 0;
		return { id, schema };
	}

	it('Create: text that is exactly a number or boolean is typed; "007", "", long ids and null are written as given', async () => {
		const { id, schema } = await typedDataSource();
		const rows = [
			{ N: '34', B: 'TRUE', T: '34' },
			{ N: '007', B: '0', T: '007' },
			{ N: '1e5', B: 'yes', T: '1e5' },
			{ N: '', B: '', T: '' },
			{ N: '12345678901234567890', B: 'False', T: ' 34 ' },
			{ N: '0x10', B: '-0', T: null },
			{ N: null, B: null, T: 'TRUE' },
		];
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				columns: storedColumns(byExpression, schema),
			},
			input: rows.map((json) => ({ json })),
			credentials: sandboxCredential(sandbox()),
		});

		expect(result.error).toBeUndefined();
		expect(storedData(sandbox(), id).slice(1)).toEqual([
			{ N: 34, B: true, T: '34' },
			{ N: '007', B: '0', T: '007' },
			{ N: '1e5', B: 'yes', T: '1e5' },
			{ N: '', B: '', T: '' },
			{ N: '12345678901234567890', B: false, T: ' 34 ' },
			{ N: '0x10', B: '-0', T: null },
			{ N: null, B: null, T: 'TRUE' },
		]);
	});

	it('Create or Update: a re-run of the same CSV changes nothing, and a null clears a cell', async () => {
		const { id, schema } = await typedDataSource();
		const upsert = (rows: Array<Record<string, string | null>>) =>
			runNode({
				parameters: {
					resource: 'entry',
					operation: 'upsert',
					dataSource: { __rl: true, mode: 'id', value: String(id) },
					columns: {
						...storedColumns({ Key: '={{ $json.Key }}', ...byExpression }, schema),
						matchingColumns: ['Key'],
					} as unknown as INodeParameters,
				},
				input: rows.map((json) => ({ json })),
				credentials: sandboxCredential(sandbox()),
			});
		const csv = [
			{ Key: 'seed', N: '1', B: 'true', T: 'x' },
			{ Key: 'zip', N: '007', B: 'FALSE', T: '1' },
		];
		const first = await upsert(csv);
		expect(first.json.map((json) => json.action)).toEqual(['unchanged', 'insert']);
		const again = await upsert(csv);
		expect(again.json.map((json) => json.action)).toEqual(['unchanged', 'unchanged']);
		expect(commitsOf(sandbox())).toHaveLength(1);

		const cleared = await upsert([{ Key: 'zip', N: null, B: 'FALSE', T: '1' }]);
		expect(cleared.json[0]).toMatchObject({ action: 'update' });
		expect(storedData(sandbox(), id)).toEqual([
			{ Key: 'seed', N: 1, B: true, T: 'x' },
			{ Key: 'zip', N: null, B: false, T: '1' },
		]);
	});
});

describe('sampledColumnTypes', () => {
	it('gives a type only when every value seen agrees; empty values do not count', () => {
		expect(
			sampledColumnTypes(
				['n', 'b', 'mixed', 'empty', 'list', 'sparse'],
				[
					{ n: 1, b: true, mixed: 1, empty: null, list: [1], sparse: '' },
					{ n: 2.5, b: false, mixed: 'one', list: [], sparse: 7 },
					'not an entry',
				],
			),
		).toEqual({
			n: 'number',
			b: 'boolean',
			mixed: undefined,
			empty: undefined,
			list: 'array',
			sparse: 'number',
		});
	});

	it('reads a typed column definition, and a plain name as untyped', () => {
		expect(columnDefinition({ name: 'Age', type: 'Number' })).toEqual({
			name: 'Age',
			type: 'number',
		});
		expect(columnDefinition({ name: 'Note', type: 'rich' })).toEqual({
			name: 'Note',
			type: undefined,
		});
		expect(columnDefinition('Name')).toEqual({ name: 'Name' });
	});
});
