import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

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
		expect(request.body).toEqual({ release: { type: 'visible', changelog: 'New directory layout' } });
	});
});
