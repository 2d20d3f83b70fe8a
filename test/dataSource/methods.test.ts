import {
	apiRequests,
	FLIPLET_NODE,
	loadOptionsContext,
	nodeTypes,
	runListSearch,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

const methods = () => nodeTypes.getByName(FLIPLET_NODE).methods!;
const staffLocator = { __rl: true, mode: 'name', value: 'Staff' };

describe('Data source pickers', () => {
	it('From List filters by name and names the app of each data source', async () => {
		const result = await runListSearch({
			method: 'searchDataSources',
			filter: 'dep',
			parameters: { resource: 'entry', operation: 'getMany' },
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.results).toEqual([{ name: 'Departments (Staff Directory, 101)', value: '101' }]);
		// The apps (for their names) and the token's own list, sent together.
		expect(apiRequests(sandbox()).map((r) => [r.path, r.query])).toEqual(
			expect.arrayContaining([
				['/v1/apps', {}],
				['/v1/data-sources', {}],
			]),
		);
		expect(apiRequests(sandbox())).toHaveLength(2);
	});

	it('From List covers every data source the token reaches, with one list for all its apps', async () => {
		const context = loadOptionsContext({
			parameters: { resource: 'entry', operation: 'get' },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			editing: true,
		});
		const result = await methods().listSearch!.searchDataSources.call(context);
		expect(result.results.map((r) => r.value)).toEqual(['100', '101', '102', '103', '104']);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/).map((r) => r.query)).toEqual([{}]);
	});

	it('filter column options are the data source columns only (filters test entry data)', async () => {
		const context = loadOptionsContext({
			parameters: { resource: 'entry', operation: 'getMany', dataSource: staffLocator },
			credentials: sandboxCredential(sandbox()),
			editing: true,
		});
		const options = await methods().loadOptions!.getDataSourceColumns.call(context);
		expect(options.map((option) => option.value)).toEqual([
			'Name',
			'Email',
			'Department',
			'Age',
			'Joined',
			'Address',
		]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/Staff$/)).toHaveLength(1);
	});

	it('the column mapper offers every column, and asks with ?dsn for an all-digit name', async () => {
		const context = loadOptionsContext({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'name', value: '2024' },
			},
			credentials: sandboxCredential(sandbox()),
			editing: true,
		});
		const mapping = await methods().resourceMapping!.getDataSourceColumnsMapping.call(context);
		expect(mapping.fields.map((field) => [field.id, field.required])).toEqual([
			['Quarter', false],
			['Revenue', false],
		]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/2024$/)[0].query).toEqual({ dsn: 'true' });
	});
});
