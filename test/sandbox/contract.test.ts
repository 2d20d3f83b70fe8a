/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { callSandbox, TOKENS, useSandbox } from '../harness';

/** The sandbox's own contract, checked over plain HTTP against the API's documented behaviour. */
const sandbox = useSandbox();

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

async function upload(path: string, fileName: string, mimeType: string) {
	const form = new FormData();
	form.append('file', new Blob([Buffer.from('audio bytes')], { type: mimeType }), fileName);
	return await callSandbox(sandbox(), 'POST', path, form, TOKENS.org);
}

describe('sandbox contract: AI rate limit', () => {
	beforeEach(() => {
		const limiter = sandbox().rateLimiter;
		limiter.enabled = true;
		limiter.limits.ai = { limit: 1, windowMs: 60_000 };
	});
	afterEach(() => {
		sandbox().rateLimiter.enabled = false;
		sandbox().rateLimiter.limits.ai = { limit: 10, windowMs: 60_000 };
	});

	it('is one limit per app, shared by every token that calls that app', async () => {
		const path = '/v1/apps/11/ai/completions';
		expect((await callSandbox(sandbox(), 'POST', path, CHAT, TOKENS.app)).status).toBe(200);
		const limited = await callSandbox(sandbox(), 'POST', path, CHAT, TOKENS.org);
		expect(limited.status).toBe(429);
		expect(limited.body).toEqual(
			expect.objectContaining({ nextValidRequestDate: expect.any(String) }),
		);
		const samePublishedApp = '/v1/apps/011/ai/completions';
		expect((await callSandbox(sandbox(), 'POST', samePublishedApp, CHAT)).status).toBe(429);
	});

	it("does not let a token that cannot reach the app use up that app's limit", async () => {
		const path = '/v1/apps/11/ai/completions';
		const foreign = await callSandbox(sandbox(), 'POST', path, CHAT, TOKENS.otherOrg);
		expect(foreign.status).toBe(404);
		expect((await callSandbox(sandbox(), 'POST', path, CHAT, TOKENS.app)).status).toBe(200);
	});

	it('does not let one app use up the limit of another', async () => {
		const first = await callSandbox(
			sandbox(),
			'POST',
			'/v1/apps/11/ai/completions',
			CHAT,
			TOKENS.org,
		);
		const other = await callSandbox(
			sandbox(),
			'POST',
			'/v1/apps/21/ai/completions',
			CHAT,
			TOKENS.org,
		);
		expect([first.status, other.status]).toEqual([200, 200]);
	});
});

describe('sandbox contract: multipart file names', () => {
	it('keeps a "%" in a file name as it is, instead of failing to decode it', async () => {
		const result = await upload('/v1/apps/11/ai/audio', '50% off 100%25.mp3', 'audio/mpeg');
		expect(result.status).toBe(200);
		expect(sandbox().state.ai.calls[0].fileName).toBe('50% off 100%25.mp3');
	});

	it('reads the %22 escape form-data clients use for a quote in a file name', async () => {
		const result = await upload('/v1/apps/11/ai/audio', 'say "hi".mp3', 'audio/mpeg');
		expect(result.status).toBe(200);
		expect(sandbox().state.ai.calls[0].fileName).toBe('say "hi".mp3');
	});
});

describe('sandbox contract: notification scope', () => {
	const path = '/v1/apps/11/notifications';

	it('leaves scope absent on a broadcast notification (SPEC: "array of objects, or absent")', async () => {
		const created = await callSandbox(sandbox(), 'PUT', path, { data: { title: 'All' } });
		expect(created.status).toBe(200);
		expect(created.body.notification).not.toHaveProperty('scope');
		const listed = await callSandbox(sandbox(), 'GET', `${path}?limit=100&includeDrafts=true`);
		const record = listed.body.notifications.find(
			(n: any) => n.id === created.body.notification.id,
		);
		expect(record).toBeDefined();
		expect(record).not.toHaveProperty('scope');
	});

	it('keeps a given scope as an array, and removes it again when an update sends null', async () => {
		const created = await callSandbox(sandbox(), 'PUT', path, {
			data: { title: 'Sales' },
			scope: { department: 'Sales' },
		});
		expect(created.body.notification.scope).toEqual([{ department: 'Sales' }]);
		const id = created.body.notification.id;
		const updated = await callSandbox(sandbox(), 'PUT', `${path}/${id}`, {
			scope: null,
			status: 'draft',
		});
		expect(updated.status).toBe(200);
		expect(updated.body.notification).not.toHaveProperty('scope');
	});
});

describe('sandbox contract: image generation', () => {
	it('drops response_format and style for the default image family even when named directly', async () => {
		const result = await callSandbox(sandbox(), 'POST', '/v1/apps/11/ai/image', {
			model: 'gpt-image-1-mini',
			prompt: 'a cat',
			response_format: 'url',
			style: 'vivid',
			quality: 'low',
		});
		expect(result.status).toBe(200);
		expect(result.body.data).toEqual([{ b64_json: expect.any(String) }]);
		expect(sandbox().state.ai.calls[0].forwarded).toEqual({
			model: 'gpt-image-1-mini',
			prompt: 'a cat',
			quality: 'low',
		});
	});
});

describe('sandbox contract: data source paging parameters', () => {
	it.each([['abc'], [-1], [2.5], [true]])(
		'refuses limit %p on a query with a 400 instead of a silently wrong page',
		async (limit) => {
			const result = await callSandbox(
				sandbox(),
				'POST',
				'/v1/data-sources/100/data/query',
				{ limit },
				TOKENS.org,
			);
			expect(result.status).toBe(400);
			expect(result.body.message).toMatch(/limit/);
		},
	);

	it('refuses a negative offset, and pages with whole numbers given as JSON or text', async () => {
		const query = (body: object) =>
			callSandbox(sandbox(), 'POST', '/v1/data-sources/100/data/query', body, TOKENS.org);
		expect((await query({ offset: -2 })).status).toBe(400);
		const page = await query({ limit: '2', offset: 1, order: [['id', 'ASC']] });
		expect(page.status).toBe(200);
		expect(page.body.entries.map((entry: any) => entry.id)).toEqual([201, 202]);
	});

	it('refuses a bad limit on the entries of a version, by GET or POST', async () => {
		const { body } = await callSandbox(
			sandbox(),
			'GET',
			'/v1/data-sources/100/versions',
			undefined,
			TOKENS.org,
		);
		const path = `/v1/data-sources/100/versions/${body.versions[0].id}/data`;
		expect(
			(await callSandbox(sandbox(), 'GET', `${path}?limit=-1`, undefined, TOKENS.org)).status,
		).toBe(400);
		expect((await callSandbox(sandbox(), 'POST', path, { limit: 'x' }, TOKENS.org)).status).toBe(
			400,
		);
		const two = await callSandbox(sandbox(), 'GET', `${path}?limit=2`, undefined, TOKENS.org);
		expect(two.body.entries).toHaveLength(2);
	});
});

describe('sandbox contract: commit entries', () => {
	it.each([
		['data that is text', [{ data: 'Name' }]],
		['data that is a list', [{ data: ['a', 'b'] }]],
		['an update without data', [{ id: 200 }]],
	])('refuses %s with a 400 and changes nothing', async (_label, entries) => {
		const before = sandbox().state.entries.filter((entry: any) => entry.dataSourceId === 100);
		const result = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/100/commit',
			{ entries, append: true },
			TOKENS.org,
		);
		expect(result.status).toBe(400);
		expect(result.body.message).toMatch(/data an object/);
		const after = sandbox().state.entries.filter((entry: any) => entry.dataSourceId === 100);
		expect(after).toEqual(before);
	});
});

describe('sandbox contract: commit delete and runHooks', () => {
	const commit = (body: object) =>
		callSandbox(sandbox(), 'POST', '/v1/data-sources/100/commit', body, TOKENS.org);

	it.each([
		['a single id instead of a list', { delete: 200 }, /delete/],
		['ids that are not numbers', { delete: ['abc'] }, /delete/],
		['runHooks as text', { runHooks: 'insert' }, /runHooks/],
		['an unknown hook kind', { runHooks: ['delete'] }, /runHooks/],
	])('refuses %s with a 400 instead of ignoring it', async (_label, extra, message) => {
		const result = await commit({ entries: [], append: true, ...extra });
		expect(result.status).toBe(400);
		expect(result.body.message).toMatch(message);
		expect(sandbox().state.entries.some((entry: any) => entry.id === 200)).toBe(true);
	});

	it('deletes the listed ids (numbers or their text) and runs the named hooks', async () => {
		const result = await commit({
			entries: [{ data: { Name: 'New' } }],
			append: true,
			delete: [200, '201'],
			runHooks: ['insert'],
		});
		expect(result.status).toBe(200);
		const ids = result.body.entries.map((entry: any) => entry.id);
		expect(ids).not.toContain(200);
		expect(ids).not.toContain(201);
		expect(sandbox().state.hookRuns).toEqual([
			{ dataSourceId: 100, kind: 'insert', entryIds: [expect.any(Number)] },
		]);
	});
});

describe('sandbox contract: query shape', () => {
	const query = (body: object) =>
		callSandbox(sandbox(), 'POST', '/v1/data-sources/100/data/query', body, TOKENS.org);

	it.each([
		['order as text', { order: 'Name' }, /^Invalid order column name: N$/],
		[
			'an order direction other than ASC or DESC',
			{ order: [['data.Name', 'DOWN']] },
			/syntax error at or near "DOWN"/,
		],
		['attributes as text', { attributes: 'Name' }, /attributes/],
		['join as a list', { join: [{ dataSourceId: 101 }] }, /join/],
	])('refuses %s with a 400 instead of ignoring it', async (_label, body, message) => {
		const result = await query(body);
		expect(result.status).toBe(400);
		expect(result.body.message).toMatch(message);
	});

	it('sorts by [column, direction] pairs in any case and keeps only the attributes asked for', async () => {
		const result = await query({
			order: [['data.Age', 'desc']],
			attributes: ['data.Age'],
			limit: 2,
		});
		expect(result.status).toBe(200);
		expect(result.body.entries).toEqual([{ data: { Age: 45 } }, { data: { Age: 39 } }]);
	});
});

describe('sandbox contract: public data sources', () => {
	const publicEvents = '/v1/data-sources/104';

	async function anonymous(method: string, path: string, body?: unknown) {
		return (await callSandbox(sandbox(), method, path, body, null)).status;
	}

	it('open their entries without a token, but not renaming or deleting the data source', async () => {
		expect(await anonymous('POST', `${publicEvents}/data/query`, {})).toBe(200);
		expect(await anonymous('PUT', publicEvents, { name: 'Taken over' })).toBe(401);
		expect(await anonymous('DELETE', publicEvents)).toBe(401);
		const kept = sandbox().state.dataSources.find((ds: any) => ds.id === 104);
		expect(kept?.name).toBe('Public Events');
	});

	it("leave the data source itself to its own organization: another organization's token gets 404", async () => {
		const other = TOKENS.otherOrg;
		const renamed = await callSandbox(sandbox(), 'PUT', publicEvents, { name: 'Mine' }, other);
		const deleted = await callSandbox(sandbox(), 'DELETE', publicEvents, undefined, other);
		expect([renamed.status, deleted.status]).toEqual([404, 404]);
		const own = await callSandbox(sandbox(), 'PUT', publicEvents, { name: 'Events' }, TOKENS.org);
		expect(own.status).toBe(200);
		expect(own.body.dataSource.name).toBe('Events');
	});
});

describe('sandbox contract: push notification payload', () => {
	const create = (pushNotification: object) =>
		callSandbox(sandbox(), 'PUT', '/v1/apps/11/notifications', {
			data: { title: 'Hi' },
			pushNotification,
		});

	it.each([
		['no body', { payload: { title: 'Hi' } }],
		['a title that is not text', { payload: { title: 5, body: 'x' } }],
		['a payload that is text', { payload: 'Hi' }],
	])('refuses a payload with %s (SPEC: it contains title and body strings)', async (_l, push) => {
		const result = await create(push);
		expect(result.status).toBe(400);
		expect(result.body.message).toMatch(/title and body/);
	});

	it('accepts title and body strings with the other payload fields', async () => {
		const push = { payload: { title: 'Hi', body: '', badge: 2 }, subscriptions: [71] };
		const result = await create(push);
		expect(result.status).toBe(200);
		expect(result.body.notification.pushNotification).toEqual(push);
	});
});
