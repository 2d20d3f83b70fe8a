import { appIdInUrl, dataSourceIdInUrl } from '../../nodes/Fliplet/helpers/studioUrls';
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

const sandbox = useSandbox();

const STUDIO_URL = 'https://studio.fliplet.com/apps/10/screens/4521';

describe('Ids in pasted addresses', () => {
	it.each([
		['https://studio.fliplet.com/apps/10/screens/4521', 10],
		['https://studio.fliplet.com/apps/10', 10],
		['studio.fliplet.com/apps/10/audit-log', 10],
		['https://staging.studio.fliplet.com/apps/123/screens/', 123],
		['https://studio.fliplet.com/#/apps/77/settings', 77],
		['https://studio.fliplet.com/app/55/edit', 55],
		['https://api.fliplet.com/v1/apps/11/analytics/sessions', 11],
		['  https://us.studio.fliplet.com/APPS/9?tab=data  ', 9],
		['https://studio.fliplet.com/apps/new', undefined],
		['https://studio.fliplet.com/organizations/1', undefined],
		['not an address at all', undefined],
		['', undefined],
	])('the app of %j is %j', (url, id) => {
		expect(appIdInUrl(url)).toBe(id);
	});

	it.each([
		['https://api.fliplet.com/v1/data-sources/123', 123],
		['https://api.fliplet.com/v1/data-sources/123/data/query', 123],
		['https://studio.fliplet.com/apps/10/data-sources/456', 456],
		['https://studio.fliplet.com/apps/10/app-data?dataSourceId=789', 789],
		['https://studio.fliplet.com/#/apps/10/data?dataSourceId=31', 31],
		['https://studio.fliplet.com/apps/10/screens/4521', undefined],
		['https://api.fliplet.com/v1/data-sources/Staff', undefined],
		['https://studio.fliplet.com/apps/10?dataSourceId=x1', undefined],
	])('the data source of %j is %j', (url, id) => {
		expect(dataSourceIdInUrl(url)).toBe(id);
	});
});

describe('App "By URL"', () => {
	const getSessions = (url: string) => ({
		resource: 'appAnalytics',
		operation: 'getSessions',
		app: { __rl: true, mode: 'url', value: url },
		returnAll: true,
	});

	it.each([
		['an app API token', TOKENS.app],
		['an organization token', TOKENS.org],
	])(
		"with %s, a Studio URL (the draft's id) resolves to the published app",
		async (_kind, token) => {
			const result = await runNode({
				parameters: getSessions(STUDIO_URL),
				credentials: sandboxCredential(sandbox(), token),
			});
			expect(result.error).toBeUndefined();
			expect(result.json.map((session) => session.id)).toEqual(
				sandbox()
					.state.analyticsSessions.get(11)
					.map((session: { id: number }) => session.id),
			);
			expect(apiRequests(sandbox()).map((r) => `${r.method} ${r.path}`)).toEqual([
				'GET /v1/apps',
				'GET /v1/apps/11/analytics/sessions',
			]);
		},
	);

	it('refuses an app the token does not reach (another app, or a draft never published), saying why and what to do', async () => {
		const result = await runNode({
			parameters: getSessions('https://studio.fliplet.com/apps/20/screens/1'),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error?.message).toBe('App 20 of this URL is not one this token reaches');
		expect(result.error?.description).toMatch(/draft app/);
		expect(result.error?.description).toMatch(/Publish the app in Fliplet Studio/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual(['/v1/apps']);
	});

	describe('a draft-only app (never published)', () => {
		beforeEach(() => {
			const base = sandbox().state.apps[0];
			sandbox().state.apps.push({
				...base,
				id: 40,
				productionAppId: null,
				name: 'New Idea',
				releases: [],
			});
		});

		it('is refused with an app token, which cannot reach drafts', async () => {
			const result = await runNode({
				parameters: getSessions('https://studio.fliplet.com/apps/40/screens/1'),
				credentials: sandboxCredential(sandbox(), TOKENS.app),
			});
			expect(result.error?.message).toBe('App 40 of this URL is not one this token reaches');
			expect(apiRequests(sandbox()).map((r) => r.path)).toEqual(['/v1/apps']);
		});

		it('is refused with an organization token too, which lists it: it has no published app', async () => {
			const result = await runNode({
				parameters: getSessions('https://studio.fliplet.com/apps/40/screens/1'),
				credentials: sandboxCredential(sandbox(), TOKENS.org),
			});
			expect(result.error?.message).toBe('App 40 ("New Idea") was never published');
			expect(result.error?.description).toMatch(/Publish the app in Fliplet Studio first/);
			expect(apiRequests(sandbox()).map((r) => r.path)).toEqual(['/v1/apps']);
		});
	});

	it('refuses an address that names no app before sending anything', async () => {
		const result = await runNode({
			parameters: getSessions('https://studio.fliplet.com/organizations/1'),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error?.message).toBe('App: this URL names no app');
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

describe('Data source "By URL"', () => {
	const getUniqueValues = (url: string) => ({
		resource: 'entry',
		operation: 'getUniqueValues',
		dataSource: { __rl: true, mode: 'url', value: url },
		uniqueColumns: ['Department'],
	});

	it.each([
		'https://api.fliplet.com/v1/data-sources/100',
		'https://studio.fliplet.com/apps/10/app-data?dataSourceId=100',
	])('reads the data source %s names', async (url) => {
		const result = await runNode({
			parameters: getUniqueValues(url),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ Department: ['Sales', 'Engineering', 'Support'] }]);
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual([
			'/v1/data-sources/100/indexes/Department',
		]);
	});

	it("refuses an app's Studio address, which names no data source, before sending anything", async () => {
		const result = await runNode({
			parameters: getUniqueValues(STUDIO_URL),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error?.message).toBe('Data source: this URL names no data source');
		expect(result.error?.description).toMatch(/data-sources\//);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('the column pickers load the columns of the data source the URL names', async () => {
		const load = nodeTypes.getByName(FLIPLET_NODE).methods!.loadOptions!.getDataSourceColumns;
		const options = await load.call(
			loadOptionsContext({
				parameters: {
					resource: 'entry',
					operation: 'sync',
					dataSource: {
						__rl: true,
						mode: 'url',
						value: 'https://api.fliplet.com/v1/data-sources/101',
					},
				},
				credentials: sandboxCredential(sandbox(), TOKENS.app),
				path: 'parameters.keyColumns',
				editing: true,
			}),
		);
		expect(options.map((option) => option.value)).toEqual(['Name', 'Floor']);
		expect(apiRequests(sandbox()).map((r) => r.path)).toEqual(['/v1/data-sources/101']);
	});
});
