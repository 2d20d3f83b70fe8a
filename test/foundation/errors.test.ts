/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { toNodeApiError } from '../../nodes/Fliplet/transport/errors';
import { apiRequests, runNode, sandboxCredential, useSandbox, type RunResult } from '../harness';
import { stubNode } from '../harness/stubNode';

const sandbox = useSandbox();

/** A token whose every appearance would be a leak. */
const SECRET = 'eu--Distinctive-Secret-7f3a9c0e51';

const DATASOURCE_ACCESS = {
	message: 'The security rules for the Data Source "Staff" do not allow this app to read data.',
	type: 'datasource.access',
	payload: { dataSourceId: 123 },
};

beforeEach(() => {
	sandbox().state.tokens.set(SECRET, {
		token: SECRET,
		id: 201,
		kind: 'organization',
		organizationId: 1,
		userId: 201,
		name: 'Secret org token',
	});
});

/** Get Sessions for app 11 (item 0) and app 21 (item 1): faults aimed at app 21 hit item 1. */
async function runSessionsOfTwoApps(token = SECRET): Promise<RunResult> {
	return await runNode({
		parameters: {
			resource: 'appAnalytics',
			operation: 'getSessions',
			app: { __rl: true, mode: 'id', value: '={{ $json.appId }}' },
			returnAll: true,
		},
		input: [{ json: { appId: 11 } }, { json: { appId: 21 } }],
		credentials: sandboxCredential(sandbox(), token),
	});
}

function expectNoSecret(result: RunResult) {
	expect(result.error).toBeDefined();
	expect(JSON.stringify(result.error)).not.toContain(SECRET);
	expect(result.error?.message).not.toContain(SECRET);
	expect(String(result.error?.description)).not.toContain(SECRET);
	expect(JSON.stringify(result.run.data)).not.toContain(SECRET);
}

describe('transport error mapping', () => {
	it('401: the token is not valid or was revoked', async () => {
		sandbox().state.tokens.delete(SECRET);
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe('The token is not valid or was revoked');
		expect(result.error?.description).toMatch(/Create a new token in Fliplet Studio/);
		expect(result.error?.httpCode).toBe('401');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toHaveLength(1);
		expectNoSecret(result);
	});

	it.each([400, 403])('%i datasource.access: explains the security rules', async (status) => {
		sandbox().injectFault({
			mode: 'status-before',
			status,
			body: DATASOURCE_ACCESS,
			path: '^/v1/apps/21/',
		});
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe(DATASOURCE_ACCESS.message);
		expect(result.error?.description).toMatch(/Security rules/);
		expect(result.error?.description).toMatch(/app API token/);
		expect(result.error?.httpCode).toBe(String(status));
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(apiRequests(sandbox()).map((request) => request.path)).toEqual([
			'/v1/apps/11/analytics/sessions',
			'/v1/apps/21/analytics/sessions',
		]);
		expectNoSecret(result);
	});

	it('403 without a type: access denied', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 403,
			body: { message: 'Access denied' },
			path: '^/v1/apps/21/',
		});
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe('Access denied');
		expect(result.error?.description).toMatch(/editor or publisher rights/);
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.context?.itemIndex).toBe(1);
		expectNoSecret(result);
	});

	it('404 on an app path: use the published productionAppId', async () => {
		const result = await runNode({
			parameters: {
				resource: 'appAnalytics',
				operation: 'getSessions',
				app: { __rl: true, mode: 'id', value: '={{ $json.appId }}' },
				returnAll: true,
			},
			input: [{ json: { appId: 11 } }, { json: { appId: 999 } }],
			credentials: sandboxCredential(sandbox(), SECRET),
		});
		expect(result.error?.message).toMatch(/The app 999 is not available to this token/);
		expect(result.error?.description).toMatch(/productionAppId/);
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.context?.itemIndex).toBe(1);
		expectNoSecret(result);
	});

	it.each([
		[402, { message: 'Insufficient credit capacity' }, /AI credits are used up/],
		[413, { message: 'Too large' }, /^The request is larger than the API accepts/],
		[415, { message: 'Unsupported media type' }, /^The API does not accept the type/],
		[422, { message: 'Unprocessable' }, /check the fields of this item/],
	])('%i: message from the API and what to do', async (status, body, description) => {
		sandbox().injectFault({ mode: 'status-before', status, body, path: '^/v1/apps/21/' });
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe(body.message);
		expect(result.error?.description).toMatch(description);
		expect(result.error?.httpCode).toBe(String(status));
		expect(result.error?.context?.itemIndex).toBe(1);
		expectNoSecret(result);
	});

	it('redacts the token when the API echoes it back', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: `The token ${SECRET} may not do this`, payload: { token: SECRET } },
			path: '^/v1/apps/21/',
		});
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe('The token [redacted] may not do this');
		expect(result.error?.httpCode).toBe('400');
		expectNoSecret(result);
	});

	it('with Continue On Fail the error item carries the redacted message, never the token', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: `Token ${SECRET} refused` },
			path: '^/v1/apps/21/',
		});
		const result = await runNode({
			parameters: {
				resource: 'appAnalytics',
				operation: 'getSessions',
				app: { __rl: true, mode: 'id', value: '={{ $json.appId }}' },
				returnAll: false,
				limit: 1,
			},
			input: [{ json: { appId: 11 } }, { json: { appId: 21 } }],
			credentials: sandboxCredential(sandbox(), SECRET),
			continueOnFail: true,
		});
		expect(result.json[1]).toEqual(
			expect.objectContaining({
				error: 'Token [redacted] refused',
				description: expect.any(String),
			}),
		);
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expect(JSON.stringify(result.run.data)).not.toContain(SECRET);
	});

	it('a body that is not JSON still gives the status', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: 'plain text',
			path: '^/v1/apps/21/',
		});
		const result = await runSessionsOfTwoApps();
		expect(result.error?.message).toBe('The Fliplet API answered 400');
		expect(result.error?.httpCode).toBe('400');
		expectNoSecret(result);
	});
});

describe('413 and 415 say what applies to the request that failed', () => {
	const node = stubNode();
	const failure = (status: number, path: string) =>
		toNodeApiError(node, { method: 'POST', path, status, attempts: 1, idempotent: false });

	it.each([
		[413, '/v1/apps/11/ai/audio', /audio file is too large: transcription takes at most 25 MiB/],
		[415, '/v1/apps/11/ai/audio', /transcription takes webm, mp4, mpeg, wav or ogg/],
		[413, '/v1/data-sources/100/commit', /fewer or smaller entries/],
		[415, '/v1/data-sources/100/data', /MIME type of the item's binary data/],
	])('%i on %s', (status, path, description) => {
		const error = failure(status, path);
		expect(error.description).toMatch(description);
		if (!path.endsWith('/ai/audio')) expect(error.description).not.toMatch(/audio/i);
	});
});
