import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import {
	apiRequests,
	FLIPLET_NODE,
	loadOptionsContext,
	nodeTypes,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { FLIPLET_TRIGGER } from '../harness/poll';
import { FLIPLET_INSTANT_TRIGGER } from '../harness/webhook';
import {
	formEntry,
	getWithFiles,
	PHOTO,
	RECEIPT,
	STAFF,
	STAFF_LOCATOR,
} from '../files/fileFixtures';
import { dataSourceWith, runSync, storedData } from '../sync/fixtures';

const sandbox = useSandbox();

/** A field of a node, found as the editor finds it: by its path and the parameters that show it. */
interface PickerCase {
	field: string;
	nodeType: string;
	/** The parameters that show the field (its operation, Download Files on...). */
	parameters: INodeParameters;
	/** Several columns (multi-select), or one. */
	multiple: boolean;
}

const entryNode = (operation: string, extra: INodeParameters = {}) => ({
	resource: 'entry',
	operation,
	dataSource: STAFF_LOCATOR,
	...extra,
});

const PICKERS: PickerCase[] = [
	{
		field: 'options.attributes',
		nodeType: FLIPLET_NODE,
		parameters: entryNode('getMany'),
		multiple: true,
	},
	{
		field: 'uniqueColumns',
		nodeType: FLIPLET_NODE,
		parameters: entryNode('getUniqueValues'),
		multiple: true,
	},
	{
		field: 'fileColumns',
		nodeType: FLIPLET_NODE,
		parameters: entryNode('get', { downloadFiles: true }),
		multiple: true,
	},
	{
		field: 'fileColumns',
		nodeType: FLIPLET_TRIGGER,
		parameters: { event: 'newEntry', dataSource: STAFF_LOCATOR, downloadFiles: true },
		multiple: true,
	},
	{
		field: 'fileColumns',
		nodeType: FLIPLET_INSTANT_TRIGGER,
		parameters: { dataSource: STAFF_LOCATOR, downloadFiles: true },
		multiple: true,
	},
	{ field: 'keyColumns', nodeType: FLIPLET_NODE, parameters: entryNode('sync'), multiple: true },
	{
		field: 'syncOptions.timestampColumn',
		nodeType: FLIPLET_NODE,
		parameters: entryNode('sync'),
		multiple: false,
	},
	{
		field: 'syncOptions.deleteColumn',
		nodeType: FLIPLET_NODE,
		parameters: entryNode('sync'),
		multiple: false,
	},
];

/** Whether a property's display rules show it for these parameters (show rules only: enough here). */
function shownFor(property: INodeProperties, parameters: INodeParameters): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(([name, values]) =>
		(values as unknown[]).includes(parameters[name]),
	);
}

/** The field at `path` (a top-level field or an option of a collection) that these parameters show. */
function fieldAt(nodeType: string, path: string, parameters: INodeParameters): INodeProperties {
	const [first, option] = path.split('.');
	const top = nodeTypes
		.getByName(nodeType)
		.description.properties.filter(
			(property) => property.name === first && shownFor(property, parameters),
		);
	expect(top).toHaveLength(1);
	if (!option) return top[0];
	const inner = (top[0].options as INodeProperties[]).find((o) => o.name === option);
	expect(inner).toBeDefined();
	return inner!;
}

const staffColumns = () =>
	sandbox().state.dataSources.find((ds: { id: number }) => ds.id === STAFF).columns as string[];

describe('Column pickers', () => {
	it.each(PICKERS.map((picker) => [`${picker.nodeType.split('.')[1]} ${picker.field}`, picker]))(
		'%s offers the columns of the data source picked in the node',
		async (_name, picker) => {
			const field = fieldAt(picker.nodeType, picker.field, picker.parameters);
			expect(field.type).toBe(picker.multiple ? 'multiOptions' : 'options');
			expect(field.default).toEqual(picker.multiple ? [] : '');
			expect(field.typeOptions?.loadOptionsDependsOn).toEqual(['dataSource.value']);
			expect(field.description).toMatch(/expression/);

			// As the editor loads a field's options: the field's method, with n8n-core's
			// LoadOptionsContext at the field's path and the node's current parameters.
			const method = field.typeOptions!.loadOptionsMethod!;
			const load = nodeTypes.getByName(picker.nodeType).methods?.loadOptions?.[method];
			expect(load).toBeDefined();
			const options = await load!.call(
				loadOptionsContext({
					parameters: picker.parameters,
					credentials: sandboxCredential(sandbox(), TOKENS.org),
					nodeType: picker.nodeType,
					path: `parameters.${picker.field}`,
					editing: true,
				}),
			);
			expect(options.map((option) => option.value)).toEqual(staffColumns());
			expect(staffColumns().length).toBeGreaterThan(3);
			expect(apiRequests(sandbox(), /^\/v1\/data-sources\/100$/)).toHaveLength(1);
		},
	);

	it('offers nothing, and asks nothing, while no data source is picked', async () => {
		const field = fieldAt(FLIPLET_NODE, 'keyColumns', entryNode('sync'));
		const load =
			nodeTypes.getByName(FLIPLET_NODE).methods!.loadOptions![
				field.typeOptions!.loadOptionsMethod!
			];
		const options = await load.call(
			loadOptionsContext({
				parameters: {
					resource: 'entry',
					operation: 'sync',
					dataSource: { __rl: true, mode: 'list', value: '' },
				},
				credentials: sandboxCredential(sandbox(), TOKENS.org),
				path: 'parameters.keyColumns',
				editing: true,
			}),
		);
		expect(options).toEqual([]);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

/** Runs a node twice, with the picker's list and with the text saved before it; both must agree. */
async function bothForms<T>(run: (value: string[] | string) => Promise<T>, list: string[]) {
	const fromList = await run(list);
	const fromText = await run(list.join(', '));
	return { fromList, fromText };
}

describe('Column pickers at run time: the picked list and the old comma-separated text', () => {
	it('Get Many → Columns to Return', async () => {
		const { fromList, fromText } = await bothForms(
			async (attributes) => {
				const before = apiRequests(sandbox(), /\/data\/query$/).length;
				const result = await runNode({
					parameters: entryNode('getMany', { returnAll: true, options: { attributes } }),
					credentials: sandboxCredential(sandbox(), TOKENS.org),
				});
				expect(result.error).toBeUndefined();
				const query = apiRequests(sandbox(), /\/data\/query$/)[before];
				return { json: result.json, attributes: query.body.attributes };
			},
			['Name', 'Age'],
		);
		expect(fromList.attributes).toEqual(['id', 'data.Name', 'data.Age']);
		expect(fromList).toEqual(fromText);
		expect(fromList.json.length).toBeGreaterThan(1);
		for (const item of fromList.json)
			expect(Object.keys(item.data as object).sort()).toEqual(['Age', 'Name']);
	});

	it('Get Many keeps a picked column whose name holds a comma whole', async () => {
		const id = await dataSourceWith(sandbox(), [{ 'Last, First': 'Doe, Ann', Last: 'x', Age: 30 }]);
		const result = await runNode({
			parameters: {
				...entryNode('getMany', { returnAll: true, options: { attributes: ['Last, First'] } }),
				dataSource: { __rl: true, mode: 'id', value: String(id) },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/data\/query$/)[0].body.attributes).toEqual([
			'id',
			'data.Last, First',
		]);
		expect(result.json.map((item) => item.data)).toEqual([{ 'Last, First': 'Doe, Ann' }]);
	});

	it('Get Unique Values → Columns', async () => {
		const { fromList, fromText } = await bothForms(
			async (uniqueColumns) => {
				const result = await runNode({
					parameters: entryNode('getUniqueValues', { uniqueColumns }),
					credentials: sandboxCredential(sandbox(), TOKENS.org),
				});
				expect(result.error).toBeUndefined();
				return result.json;
			},
			['Department', 'Address.city'],
		);
		expect(fromList).toEqual([
			{
				Department: ['Sales', 'Engineering', 'Support'],
				'Address.city': ['London', 'Paris', 'Berlin'],
			},
		]);
		expect(fromText).toEqual(fromList);
	});

	it('Get Unique Values refuses a picked column whose name holds a comma, sending nothing', async () => {
		const result = await runNode({
			parameters: entryNode('getUniqueValues', { uniqueColumns: ['Last, First'] }),
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe('The column "Last, First" has a comma in its name');
		expect(apiRequests(sandbox(), /indexes/)).toHaveLength(0);
	});

	it('Download Files → File Columns', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Chair' }, [
			{ column: 'Photo', name: 'chair.png', type: 'image/png', bytes: PHOTO },
			{ column: 'Receipt', name: 'a.pdf', type: 'application/pdf', bytes: RECEIPT },
		]);
		const { fromList, fromText } = await bothForms(
			async (fileColumns) => {
				const result = await runNode({
					parameters: getWithFiles(entry.id, { fileColumns }),
					credentials: sandboxCredential(sandbox()),
				});
				expect(result.error).toBeUndefined();
				const [item] = result.items;
				return { binaries: Object.keys(item.binary ?? {}), downloads: item.json.fileDownloads };
			},
			['Receipt'],
		);
		expect(fromList.binaries).toEqual(['Receipt']);
		expect(fromText).toEqual(fromList);
	});

	it('Sync → Key Columns, Timestamp Column and Delete Flag Column', async () => {
		const stored = [
			{ Email: 'ann@x.io', Team: 'A', Modified: 1, Gone: '' },
			{ Email: 'bob@x.io', Team: 'B', Modified: 1, Gone: '' },
		];
		const rows = [
			{ Email: 'ann@x.io', Team: 'A2', Modified: 2, Gone: '' },
			{ Email: 'bob@x.io', Team: 'B', Modified: 2, Gone: 'yes' },
			{ Email: 'cy@x.io', Team: 'C', Modified: 2, Gone: '' },
		];
		const outcomes = [];
		for (const keyColumns of [['Email'], 'Email']) {
			const id = await dataSourceWith(
				sandbox(),
				stored,
				`Sync Target ${Array.isArray(keyColumns) ? 'list' : 'text'}`,
			);
			const result = await runSync(sandbox(), id, rows, {
				keyColumns,
				syncOptions: { timestampColumn: 'Modified', deleteColumn: 'Gone' },
			});
			expect(result.error).toBeUndefined();
			const { inserted, updated, deleted } = result.json[0];
			outcomes.push({ inserted, updated, deleted, stored: storedData(sandbox(), id) });
		}
		expect(outcomes[0]).toEqual({
			inserted: 1,
			updated: 1,
			deleted: 1,
			stored: [
				{ Email: 'ann@x.io', Team: 'A2', Modified: 2, Gone: '' },
				{ Email: 'cy@x.io', Team: 'C', Modified: 2, Gone: '' },
			],
		});
		expect(outcomes[1]).toEqual(outcomes[0]);
	});

	it('Sync and Get Many keep a name picked in a list exactly, a space at its end included', async () => {
		const stored = [{ 'Email ': 'ann@x.io', Team: 'A' }];
		const id = await dataSourceWith(sandbox(), stored);
		const result = await runSync(sandbox(), id, [{ 'Email ': 'ann@x.io', Team: 'B' }], {
			keyColumns: ['Email '],
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ 'Email ': 'ann@x.io', Team: 'B' }]);

		const read = await runNode({
			parameters: {
				...entryNode('getMany', { returnAll: true, options: { attributes: ['Email '] } }),
				dataSource: { __rl: true, mode: 'id', value: String(id) },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(read.json.map((item) => item.data)).toEqual([{ 'Email ': 'ann@x.io' }]);
	});

	it('Sync keeps a picked key column whose name holds a comma whole', async () => {
		const id = await dataSourceWith(sandbox(), [{ 'Last, First': 'Doe, Ann', Age: 30 }]);
		const result = await runSync(sandbox(), id, [{ 'Last, First': 'Doe, Ann', Age: 31 }], {
			keyColumns: ['Last, First'],
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1 });
		expect(storedData(sandbox(), id)).toEqual([{ 'Last, First': 'Doe, Ann', Age: 31 }]);
	});
});
