import {
	apiRequests,
	runListSearch,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

describe('App resource', () => {
	it('Get Many lists the apps the token reaches, simplified', async () => {
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.status).toBe('success');
		expect(result.json.map((app) => app.name)).toEqual(['Staff Directory', 'Field Reports']);
		expect(result.json[0]).toEqual(
			expect.objectContaining({ id: 10, productionAppId: 11, organizationId: 1 }),
		);
		expect(result.json[0]).not.toHaveProperty('settings');
		const [request] = apiRequests(sandbox(), /^\/v1\/apps$/);
		expect(request.headers['auth-token']).toBe(TOKENS.org);
	});

	it('Publish sends the release and returns the new version', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'id', value: '11' },
				releaseType: 'visible',
				changelog: 'New directory layout',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([expect.objectContaining({ id: 10, version: 2 })]);
		const [request] = apiRequests(sandbox(), /publish$/);
		expect(request.method).toBe('POST');
		expect(request.body).toEqual({
			release: { type: 'visible', changelog: 'New directory layout' },
		});
	});
});

describe('App → Get Many by token kind', () => {
	it.each([
		['app token', TOKENS.app, [{ id: 10, productionAppId: 11, name: 'Staff Directory' }]],
		[
			'organization token',
			TOKENS.org,
			[
				{ id: 10, productionAppId: 11, name: 'Staff Directory' },
				{ id: 20, productionAppId: 21, name: 'Field Reports' },
			],
		],
		[
			'token of another organization',
			TOKENS.otherOrg,
			[{ id: 30, productionAppId: 31, name: 'Other Org App' }],
		],
	])('the %s sees only its apps', async (_label, token, expected) => {
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: sandboxCredential(sandbox(), token),
		});
		expect(result.error).toBeUndefined();
		expect(
			result.json.map(({ id, productionAppId, name }) => ({ id, productionAppId, name })),
		).toEqual(expected);
		const requests = apiRequests(sandbox());
		expect(requests).toHaveLength(1);
		expect(requests[0]).toEqual(
			expect.objectContaining({ method: 'GET', path: '/v1/apps', query: {} }),
		);
		expect(requests[0].headers['auth-token']).toBe(token);
	});

	it('Limit caps the list and Simplify off returns the whole record', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'getMany',
				returnAll: false,
				limit: 1,
				simplify: false,
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toEqual(
			expect.objectContaining({ id: 10, settings: {}, releases: [], appUser: expect.any(Object) }),
		);
	});
});

describe('App → Publish', () => {
	it('By Name looks the app up and publishes its live app (productionAppId)', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'name', value: 'staff directory' },
				releaseType: 'silent',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([expect.objectContaining({ id: 10, version: 2 })]);
		expect(apiRequests(sandbox()).map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /v1/apps',
			'POST /v1/apps/11/publish',
		]);
		expect(apiRequests(sandbox(), /publish$/)[0].body).toEqual({
			release: { type: 'silent', changelog: '' },
		});
	});

	it('By Name refuses an unknown name before publishing anything', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'name', value: 'Field Reports' },
				releaseType: 'silent',
			},
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error?.message).toBe('No app named "Field Reports"');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), /publish$/)).toHaveLength(0);
	});
});

describe('App Analytics → Get Sessions', () => {
	const getSessions = (value: string, limit: number) => ({
		resource: 'appAnalytics',
		operation: 'getSessions',
		app: { __rl: true, mode: 'id', value },
		returnAll: false,
		limit,
	});

	it('returns up to Limit sessions of the live app', async () => {
		const result = await runNode({
			parameters: getSessions('11', 2),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((session) => session.id)).toEqual([1, 2]);
		expect(result.json[0]).toEqual(
			expect.objectContaining({
				identifier: expect.objectContaining({ os: { major: '15', family: 'iOS' } }),
			}),
		);
		const [request] = apiRequests(sandbox());
		expect(request).toEqual(
			expect.objectContaining({ method: 'GET', path: '/v1/apps/11/analytics/sessions', query: {} }),
		);
	});

	it('the draft id with an app token answers 404 with the productionAppId hint', async () => {
		const result = await runNode({
			parameters: getSessions('10', 5),
			credentials: sandboxCredential(sandbox(), TOKENS.app),
		});
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.message).toMatch(/The app 10 is not available to this token/);
		expect(result.error?.description).toMatch(/use the published app's productionAppId/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())[0].path).toBe('/v1/apps/10/analytics/sessions');
	});
});

describe('App locator "From List" (searchApps)', () => {
	it('lists the apps the token reaches by their live app id, filtered by name', async () => {
		const all = await runListSearch({
			method: 'searchApps',
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(all.results).toEqual([
			{ name: 'Staff Directory (11)', value: '11' },
			{ name: 'Field Reports (21)', value: '21' },
		]);
		const filtered = await runListSearch({
			method: 'searchApps',
			filter: 'field',
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(filtered.results).toEqual([{ name: 'Field Reports (21)', value: '21' }]);
		const requests = apiRequests(sandbox());
		expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /v1/apps',
			'GET /v1/apps',
		]);
		expect(requests[0].headers['auth-token']).toBe(TOKENS.org);
	});
});

describe('App and App Analytics refuse bad input before any request', () => {
	it.each([
		['App → Get Many', { resource: 'app', operation: 'getMany' }],
		[
			'App Analytics → Get Sessions',
			{
				resource: 'appAnalytics',
				operation: 'getSessions',
				app: { __rl: true, mode: 'id', value: '11' },
			},
		],
	])('%s refuses a Limit of 0 without calling the API', async (_label, parameters) => {
		const result = await runNode({
			parameters: { ...parameters, returnAll: false, limit: 0 },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe('Limit: 0 is not a whole number of at least 1');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});

	it('Publish refuses a release type the API does not know, before publishing', async () => {
		const result = await runNode({
			parameters: {
				resource: 'app',
				operation: 'publish',
				app: { __rl: true, mode: 'id', value: '11' },
				releaseType: '={{ "instant" }}',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Release Type: "instant" is not a release type');
		expect(result.error?.description).toBe('Use silent, visible or forced.');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});

describe('App locator "By Name" over many items', () => {
	it('reads the app list once per run, and resolves each item to its own live app', async () => {
		const result = await runNode({
			parameters: {
				resource: 'appAnalytics',
				operation: 'getSessions',
				app: { __rl: true, mode: 'name', value: '={{ $json.app }}' },
				returnAll: true,
			},
			input: [
				{ json: { app: 'Staff Directory' } },
				{ json: { app: 'Field Reports' } },
				{ json: { app: 'staff directory' } },
			],
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox()).map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /v1/apps',
			'GET /v1/apps/11/analytics/sessions',
			'GET /v1/apps/21/analytics/sessions',
			'GET /v1/apps/11/analytics/sessions',
		]);
		const sessionsOf = (item: number) =>
			result.items
				.filter((output) => JSON.stringify(output.pairedItem) === JSON.stringify({ item }))
				.map((output) => output.json.id);
		expect(sessionsOf(0).length).toBeGreaterThan(0);
		expect(sessionsOf(2)).toEqual(sessionsOf(0));
		expect(result.items).toHaveLength(sessionsOf(0).length * 2 + sessionsOf(1).length);
	});

	it('reads the app list again on the next run', async () => {
		const parameters = {
			resource: 'app',
			operation: 'publish',
			app: { __rl: true, mode: 'name', value: 'Staff Directory' },
			releaseType: 'silent',
		};
		await runNode({ parameters, credentials: sandboxCredential(sandbox(), TOKENS.org) });
		sandbox().state.apps.find((app: { id: number }) => app.id === 10).name = 'Staff Directory v2';
		const second = await runNode({
			parameters,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(second.error?.message).toBe('No app named "Staff Directory"');
		expect(apiRequests(sandbox(), /^\/v1\/apps$/)).toHaveLength(2);
	});
});
