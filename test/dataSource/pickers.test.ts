/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	faultNthRequest,
	FLIPLET_NODE,
	loadOptionsContext,
	nodeTypes,
	sandboxCredential,
	setSandboxReadings,
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

describe.each([
	{ dataSourceList: 'own' as const, sent: ['/v1/apps', '/v1/data-sources'] },
	{
		// The contract's reading: a list needs an app or organization, so each app's follows.
		dataSourceList: 'contextRequired' as const,
		sent: [
			'/v1/apps',
			'/v1/data-sources',
			'/v1/data-sources?appId=11',
			'/v1/data-sources?appId=21',
		],
	},
])(
	'Data source From List over every app (token-wide list: $dataSourceList)',
	({ dataSourceList, sent }) => {
		beforeEach(() => setSandboxReadings(sandbox(), { dataSourceList }));

		const search = () =>
			methods().listSearch!.searchDataSources.call(
				context({ resource: 'entry', operation: 'get' }),
			);
		const pathsSent = () =>
			apiRequests(sandbox())
				.map((r) => (r.query.appId ? `${r.path}?appId=${r.query.appId}` : r.path))
				.sort();

		it('names the app of each data source', async () => {
			const result = await search();
			const { apps, dataSources } = sandbox().state;
			const expected = dataSources
				.filter((ds: any) => ds.organizationId === 1)
				.map((ds: any) => {
					const app = apps.find((a: any) => (a.productionAppId ?? a.id) === ds.appId);
					return { name: `${ds.name} (${app.name}, ${ds.id})`, value: String(ds.id) };
				});
			expect(result.results).toEqual(expected);
			expect(expected.length).toBeGreaterThan(1);
			expect(pathsSent()).toEqual(sent);
		});

		it('stops with the error when the token is refused, instead of showing an empty list', async () => {
			sandbox().injectFault({ mode: 'status-before', status: 401, method: 'GET', count: 10 });
			await expect(search()).rejects.toMatchObject({ httpCode: '401' });
		});

		it("stops on 403 (no permission) from an app's list", async () => {
			if (dataSourceList === 'own') {
				// Refused without an app: each app's list follows, and the first of them is refused.
				sandbox().injectFault({
					mode: 'status-before',
					status: 403,
					method: 'GET',
					path: '^/v1/data-sources$',
					count: 2,
				});
			} else {
				faultNthRequest(sandbox(), { method: 'GET', path: /^\/v1\/data-sources$/ }, 2, {
					mode: 'status-before',
					status: 403,
				});
			}
			await expect(search()).rejects.toMatchObject({ httpCode: '403' });
		});

		it('leaves out an app whose data sources fail for another reason and lists the others', async () => {
			// The list without an app fails (or is refused), then the first app's list.
			sandbox().injectFault({
				mode: 'status-before',
				status: 404,
				method: 'GET',
				path: '^/v1/data-sources$',
				count: 2,
			});
			const result = await search();
			const perApp = apiRequests(sandbox(), /^\/v1\/data-sources$/).filter((r) => r.query.appId);
			expect(perApp.map((r) => r.status).sort()).toEqual([200, 404]);
			const listedApp = Number(perApp.find((r) => r.status === 200)!.query.appId);
			const listed = sandbox()
				.state.dataSources.filter((ds: any) => ds.appId === listedApp)
				.map((ds: any) => String(ds.id));
			expect(result.results.map((r) => r.value)).toEqual(listed);
			expect(listed.length).toBeGreaterThan(0);
		});
	},
);
