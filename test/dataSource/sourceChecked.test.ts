// What the platform's source-checked docs (Fliplet/fliplet-cli, commit 8990dd3c and the branch
// fix/DEV-1824-ds-order-contract) and its VS Code extension show, beside SPEC: insert answers 200,
// publish 201 with the version as text and errors as {error}, the data sources of a token are
// listed without naming an app or organization, and a create may carry security rules.
import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const app = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Entry → Insert: the 200 answer', () => {
	it('returns the new entry from a 200', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: app('100'),
				columns: { mappingMode: 'defineBelow', value: { Name: 'Fay Lee' } },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/data$/).map((request) => request.status)).toEqual([200]);
		expect(result.json).toEqual([
			expect.objectContaining({ dataSourceId: 100, data: { Name: 'Fay Lee' } }),
		]);
	});
});

describe('App → Publish: 201 with the version as text', () => {
	const publish = (appId: string, token = TOKENS.app) =>
		runNode({
			parameters: { resource: 'app', operation: 'publish', app: app(appId), releaseType: 'silent' },
			credentials: sandboxCredential(sandbox(), token),
		});

	it('outputs the version as a number whichever way the platform writes it', async () => {
		const result = await publish('11');
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /publish$/).map((request) => request.status)).toEqual([201]);
		expect(result.json).toEqual([
			{ version: 2, id: 10, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
		]);
	});

	it("shows the platform's {error} answer", async () => {
		const result = await publish('11', TOKENS.otherOrg);
		expect(result.error?.message).toMatch(/The app 11 is not available to this token/);
	});
});

describe('Data Source → Get Many: all the data sources of the token', () => {
	it.each([
		['an app token: its app', TOKENS.app, ['Staff', 'Departments', '2024', 'Restricted']],
		[
			'an organization token: its organization',
			TOKENS.org,
			['Staff', 'Departments', '2024', 'Restricted', 'Public Events'],
		],
	])('%s', async (_label, token, names) => {
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'getMany', scope: 'token', returnAll: true },
			credentials: sandboxCredential(sandbox(), token),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources$/);
		expect(request.query).toEqual({});
		expect(result.json.map((dataSource) => dataSource.name)).toEqual(names);
	});

	it("under the contract's reading (an app or organization required), says to pick a scope", async () => {
		setSandboxReadings(sandbox(), { dataSourceList: 'contextRequired' });
		const result = await runNode({
			parameters: { resource: 'dataSource', operation: 'getMany', scope: 'token', returnAll: true },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe(
			'This Fliplet API lists data sources only by app or organization',
		);
		expect(result.error?.description).toMatch(/Set Scope to App/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/).map((r) => r.status)).toEqual([400]);
	});
});

describe('Data Source → Create with security rules', () => {
	const create = (parameters: Record<string, unknown>) =>
		runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'create',
				scope: 'app',
				app: app('11'),
				name: 'Guarded',
				...parameters,
			} as never,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
	const insertAs = (id: unknown, token: string) =>
		callSandbox(sandbox(), 'PUT', `/v1/data-sources/${id}/data`, { Name: 'x' }, token);

	it('Full Access for This App sends the rule the VS Code extension sets, and only that app gets in', async () => {
		const result = await create({ securityRules: 'appFullAccess' });
		expect(result.error).toBeUndefined();
		const rules = [
			{ type: ['select', 'insert', 'update', 'delete'], allow: 'all', appId: [11], enabled: true },
		];
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)[0].body).toEqual({
			name: 'Guarded',
			accessRules: rules,
		});
		const { id } = result.json[0];
		expect(result.json[0].accessRules).toEqual(rules);
		expect((await insertAs(id, TOKENS.app)).status).toBe(200);
		const other = await insertAs(id, TOKENS.otherApp);
		expect(other.status).toBe(400);
		expect(other.body.type).toBe('datasource.access');
	});

	it('sends custom rules as written, and refuses Full Access without an app before sending', async () => {
		const rules = [{ type: ['select'], allow: 'all' }];
		const custom = await create({ securityRules: 'json', accessRules: JSON.stringify(rules) });
		expect(custom.error).toBeUndefined();
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)[0].body.accessRules).toEqual(rules);
		expect((await insertAs(custom.json[0].id, TOKENS.app)).status).toBe(400);

		const organizationWide = await create({
			scope: 'organization',
			organizationId: app('1'),
			name: 'Org Wide',
			securityRules: 'appFullAccess',
		});
		expect(organizationWide.error?.message).toBe('Full Access for This App needs Scope: App');
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/)).toHaveLength(1);
	});
});
