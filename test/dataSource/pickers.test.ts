/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	FLIPLET_NODE,
	loadOptionsContext,
	nodeTypes,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const methods = () => nodeTypes.getByName(FLIPLET_NODE).methods!;

function context(parameters: Record<string, unknown>) {
	return loadOptionsContext({
		parameters: parameters as any,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
		editing: true,
	});
}

describe('Column pickers', () => {
	it("sort rules offer the columns plus the entry ID, dates and Studio's row order", async () => {
		const options = await methods().loadOptions!.getDataSourceSortColumns.call(
			context({
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: '100' },
			}),
		);
		expect(options.map((option) => option.value)).toEqual([
			'Name',
			'Email',
			'Department',
			'Age',
			'Joined',
			'Address',
			'id',
			'createdAt',
			'updatedAt',
			'$order',
		]);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources\/100$/)).toHaveLength(1);
	});

	it('filter rows (Get Many, Delete Many) load the columns-only list, sort rules the one with entry fields', () => {
		const properties = nodeTypes.getByName(FLIPLET_NODE).description.properties;
		const columnMethod = (name: string, operation: string) => {
			const field = properties.find(
				(property) =>
					property.name === name &&
					(property.displayOptions?.show?.operation as string[]).includes(operation),
			) as any;
			return field.options[0].values.find((value: any) => value.name === 'column').typeOptions
				.loadOptionsMethod;
		};
		expect(columnMethod('filters', 'getMany')).toBe('getDataSourceColumns');
		expect(columnMethod('filters', 'deleteMany')).toBe('getDataSourceColumns');
		expect(columnMethod('sort', 'getMany')).toBe('getDataSourceSortColumns');
	});
});

describe('Data source From List over every app', () => {
	const search = () =>
		methods().listSearch!.searchDataSources.call(context({ resource: 'entry', operation: 'get' }));

	it('names the app of each data source', async () => {
		const result = await search();
		const { apps, dataSources } = sandbox().state;
		const appIds = apiRequests(sandbox(), /^\/v1\/data-sources$/).map((r) => r.query.appId);
		const expected = dataSources
			.filter((ds: any) => appIds.includes(String(ds.appId)))
			.map((ds: any) => {
				const app = apps.find((a: any) => (a.productionAppId ?? a.id) === ds.appId);
				return { name: `${ds.name} (${app.name}, ${ds.id})`, value: String(ds.id) };
			});
		expect(result.results).toEqual(expected);
		expect(expected.length).toBeGreaterThan(1);
	});

	it('stops with the error when the token is refused, instead of showing an empty list', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 401,
			method: 'GET',
			path: '^/v1/data-sources$',
		});
		await expect(search()).rejects.toMatchObject({ httpCode: '401' });
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)).toHaveLength(1);
	});

	it('also stops on 403 (no permission)', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 403,
			method: 'GET',
			path: '^/v1/data-sources$',
		});
		await expect(search()).rejects.toMatchObject({ httpCode: '403' });
	});

	it('leaves out an app whose data sources fail for another reason and lists the others', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 404,
			method: 'GET',
			path: '^/v1/data-sources$',
		});
		const result = await search();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(requests.map((r) => r.status)).toEqual([404, 200]);
		const listed = sandbox()
			.state.dataSources.filter((ds: any) => String(ds.appId) === requests[1].query.appId)
			.map((ds: any) => String(ds.id));
		expect(result.results.map((r) => r.value)).toEqual(listed);
		expect(listed.length).toBeGreaterThan(0);
	});
});
