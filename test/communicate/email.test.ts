/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, useSandbox, type TestItem } from '../harness';

const sandbox = useSandbox();

const PDF_BASE64 = Buffer.from('%PDF-1.4 sandbox invoice').toString('base64');

function emailParameters(overrides: Record<string, unknown> = {}) {
	return {
		resource: 'email',
		operation: 'send',
		to: '={{ $json.to }}',
		subject: '={{ "Hello " + $json.name }}',
		html: '=<p>Hi {{ $json.name }}</p>',
		...overrides,
	};
}

const people: TestItem[] = [
	{ json: { to: 'ann@example.com', name: 'Ann' } },
	{ json: { to: 'bob@example.com, carl@example.org', name: 'Bob' } },
];

describe('Email → Send, one request per item', () => {
	it('sends every field as the API documents it and pairs each output with its item', async () => {
		const result = await runNode({
			parameters: emailParameters({
				options: {
					cc: '={{ $json.cc }}',
					bcc: 'audit@example.com',
					fromName: 'Acme HR',
					required: true,
					binaryProperties: 'invoice',
					headers: {
						header: [
							{ name: 'X-Campaign', value: 'spring' },
							{ name: 'Reply-To', value: 'hr@example.com' },
						],
					},
					attachments: {
						attachment: [
							{
								name: 'notes.txt',
								mimeType: 'text/plain',
								content: 'plain notes',
								encoding: 'text',
							},
						],
					},
				},
			}),
			input: [
				{
					json: {
						to: 'ann@example.com',
						name: 'Ann',
						cc: ['boss@example.com', 'peer@example.com'],
					},
					binary: {
						invoice: { data: PDF_BASE64, fileName: 'invoice-1.pdf', mimeType: 'application/pdf' },
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request, ...rest] = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(rest).toHaveLength(0);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/communicate/email');
		expect(request.headers['content-type']).toMatch(/application\/json/);
		const expected = {
			to: [
				{ email: 'ann@example.com', type: 'to' },
				{ email: 'boss@example.com', type: 'cc' },
				{ email: 'peer@example.com', type: 'cc' },
				{ email: 'audit@example.com', type: 'bcc' },
			],
			subject: 'Hello Ann',
			html: '<p>Hi Ann</p>',
			from_name: 'Acme HR',
			headers: { 'X-Campaign': 'spring', 'Reply-To': 'hr@example.com' },
			attachments: [
				{ type: 'application/pdf', content: PDF_BASE64, name: 'invoice-1.pdf', encoding: 'base64' },
				{ type: 'text/plain', content: 'plain notes', name: 'notes.txt' },
			],
			required: true,
		};
		expect(request.body).toEqual(expected);
		expect(sandbox().state.sent.emails).toEqual([expected]);
		expect(result.json).toEqual([
			{
				sent: true,
				to: ['ann@example.com'],
				cc: ['boss@example.com', 'peer@example.com'],
				bcc: ['audit@example.com'],
				subject: 'Hello Ann',
				attachments: ['invoice-1.pdf', 'notes.txt'],
			},
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('sends one request per item without the batch option', async () => {
		const result = await runNode({
			parameters: emailParameters(),
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(requests.map((r) => r.path)).toEqual(['/v1/communicate/email', '/v1/communicate/email']);
		expect(requests[1].body.to).toEqual([
			{ email: 'bob@example.com', type: 'to' },
			{ email: 'carl@example.org', type: 'to' },
		]);
		expect(result.json.map((json) => json.to)).toEqual([
			['ann@example.com'],
			['bob@example.com', 'carl@example.org'],
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('Email → Send in batches', () => {
	it('groups items into chunked batch requests and pairs every output back', async () => {
		const input: TestItem[] = [0, 1, 2, 3, 4].map((n) => ({
			json: { to: `user${n}@example.com`, name: `U${n}` },
		}));
		const result = await runNode({
			parameters: emailParameters({ sendInBatches: true, batchSize: 2 }),
			input,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(requests.map((r) => r.path)).toEqual(Array(3).fill('/v1/communicate/email/batch'));
		expect(requests.map((r) => r.body.emails.map((e: any) => e.to[0].email))).toEqual([
			['user0@example.com', 'user1@example.com'],
			['user2@example.com', 'user3@example.com'],
			['user4@example.com'],
		]);
		expect(requests[0].body.emails[1]).toEqual({
			to: [{ email: 'user1@example.com', type: 'to' }],
			subject: 'Hello U1',
			html: '<p>Hi U1</p>',
		});
		expect(sandbox().state.sent.emails).toHaveLength(5);
		expect(result.items.map((item) => [item.pairedItem, item.json.to])).toEqual(
			input.map((item, n) => [{ item: n }, [item.json.to]]),
		);
	});

	it('with Continue On Fail, a bad item comes out as an error and the others are still sent', async () => {
		const result = await runNode({
			parameters: emailParameters({ sendInBatches: true, batchSize: 10 }),
			input: [
				{ json: { to: 'a@example.com' } },
				{ json: { to: 'not-an-address' } },
				{ json: { to: 'c@example.com' } },
			],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		const [request, ...rest] = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(rest).toHaveLength(0);
		expect(request.body.emails.map((e: any) => e.to[0].email)).toEqual([
			'a@example.com',
			'c@example.com',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json[0].sent).toBe(true);
		expect(result.json[1].error).toMatch(/Item 1: invalid email address in "To": "not-an-address"/);
		expect(result.json[2].to).toEqual(['c@example.com']);
	});
});

describe('Email → subject, body and attachment names', () => {
	it('sends an email with a subject and no body, or a body and no subject', async () => {
		const result = await runNode({
			parameters: emailParameters({ subject: '={{ $json.subject }}', html: '={{ $json.html }}' }),
			input: [
				{ json: { to: 'ann@example.com', subject: 'Only a subject', html: '' } },
				{ json: { to: 'bob@example.com', subject: '', html: '<p>Only a body</p>' } },
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(sandbox().state.sent.emails.map((e: any) => [e.subject, e.html])).toEqual([
			['Only a subject', ''],
			['', '<p>Only a body</p>'],
		]);
	});

	it('names an attachment from a binary without a file name after its field, with an extension from its MIME type', async () => {
		const result = await runNode({
			parameters: emailParameters({ options: { binaryProperties: 'invoice, photo, blob' } }),
			input: [
				{
					json: { to: 'ann@example.com', name: 'Ann' },
					binary: {
						invoice: { data: PDF_BASE64, mimeType: 'application/pdf' },
						photo: { data: PDF_BASE64, mimeType: 'image/jpeg' },
						blob: { data: PDF_BASE64, mimeType: 'application/x-unknown-kind' },
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [email] = sandbox().state.sent.emails;
		expect(email.attachments.map((a: any) => [a.name, a.type])).toEqual([
			['invoice.pdf', 'application/pdf'],
			['photo.jpg', 'image/jpeg'],
			['blob', 'application/x-unknown-kind'],
		]);
		expect(result.json[0].attachments).toEqual(['invoice.pdf', 'photo.jpg', 'blob']);
	});
});

describe('Email → display names', () => {
	it('sends "Name <address>" in To, CC and BCC as the address with its name beside it', async () => {
		const result = await runNode({
			parameters: emailParameters({
				to: 'Ann <ann@example.com>, "Lee, Bob" <bob@example.com>, carl@example.org',
				options: { cc: '"Dana \\"D\\" Ray" <dana@example.com>', bcc: '<audit@example.com>' },
			}),
			input: [{ json: { name: 'team' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/communicate\/email$/);
		expect(request.body.to).toEqual([
			{ email: 'ann@example.com', name: 'Ann', type: 'to' },
			{ email: 'bob@example.com', name: 'Lee, Bob', type: 'to' },
			{ email: 'carl@example.org', type: 'to' },
			{ email: 'dana@example.com', name: 'Dana "D" Ray', type: 'cc' },
			{ email: 'audit@example.com', type: 'bcc' },
		]);
		expect(sandbox().state.sent.emails[0].to[0]).toEqual({
			email: 'ann@example.com',
			name: 'Ann',
			type: 'to',
		});
		expect(result.json[0]).toMatchObject({
			sent: true,
			to: ['ann@example.com', 'bob@example.com', 'carl@example.org'],
			cc: ['dana@example.com'],
		});
	});

	it('takes {email, name} objects from a list expression', async () => {
		const result = await runNode({
			parameters: emailParameters({ to: '={{ $json.to }}' }),
			input: [{ json: { name: 'x', to: [{ email: 'ann@example.com', name: 'Ann' }] } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(sandbox().state.sent.emails[0].to).toEqual([
			{ email: 'ann@example.com', name: 'Ann', type: 'to' },
		]);
	});

	it.each([
		['Ann <ann@example>', '"Ann <ann@example>"'],
		['Ann ann@example.com', '"Ann ann@example.com"'],
		['Ann <>', '"Ann <>"'],
	])('still refuses %s, naming it as written, before sending', async (to, named) => {
		const result = await runNode({
			parameters: emailParameters({ to }),
			input: [{ json: { name: 'x' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe(`Item 0: invalid email address in "To": ${named}`);
		expect(result.error?.description).toMatch(
			/after a display name with the address in angle brackets/,
		);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(0);
	});
});

describe('Email → validation sends nothing', () => {
	it.each([
		[
			'a bad address in To',
			{ to: '={{ $json.to }}' },
			/Item 1: invalid email address in "To": "bob@"/,
		],
		[
			'a bad address in CC',
			{ to: 'ok@example.com', options: { cc: '={{ $json.to === "bob@" ? "x@y" : "" }}' } },
			/Item 1: invalid email address in "CC": "x@y"/,
		],
		[
			'a custom header without X-',
			{ options: { headers: { header: [{ name: 'Campaign', value: 'spring' }] } } },
			/Item 0: header refused: "Campaign" is neither a custom header starting with "X-"/,
		],
		[
			'a header value with a line break',
			{
				options: { headers: { header: [{ name: 'X-Tag', value: 'a\r\nBcc: evil@example.com' }] } },
			},
			/Item 0: header refused: the value of "X-Tag" contains a line break/,
		],
		[
			'a missing binary property',
			{ options: { binaryProperties: 'invoice' } },
			/Item 0: no binary property "invoice"/,
		],
		[
			'To only, with no subject and no body (for item 1, whose fields are empty)',
			{
				subject: '={{ $json.to === "bob@" ? "" : "Hi" }}',
				html: '={{ $json.to === "bob@" ? " " : "" }}',
				to: 'ok@example.com',
			},
			/^Item 1: the email has no "Subject" and no "HTML Body", so it would arrive blank$/,
		],
	])('refuses %s, naming the item and the field', async (_case, overrides, message) => {
		const result = await runNode({
			parameters: emailParameters(overrides),
			input: [{ json: { to: 'ann@example.com' } }, { json: { to: 'bob@' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toBeTruthy();
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(0);
		expect(sandbox().state.sent.emails).toHaveLength(0);
	});

	it('names the failing item in the error context', async () => {
		const result = await runNode({
			parameters: emailParameters(),
			input: [{ json: { to: 'ann@example.com' } }, { json: { to: 'bob@' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.context?.itemIndex).toBe(1);
	});
});

describe('Email → never sent twice', () => {
	it.each([
		['a 500 after the API processed it', { mode: 'status-after' as const, status: 500 }],
		['a connection dropped after the API processed it', { mode: 'drop-after' as const }],
	])(
		'%s: exactly one recorded send, and the error says it may have been sent',
		async (_case, fault) => {
			sandbox().injectFault({ ...fault, path: '^/v1/communicate/email$' });
			const result = await runNode({
				parameters: emailParameters(),
				input: [{ json: { to: 'ann@example.com', name: 'Ann' } }],
				credentials: sandboxCredential(sandbox()),
			});
			expect(result.status).toBe('error');
			expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(1);
			expect(sandbox().state.sent.emails).toHaveLength(1);
			expect(result.error?.description).toMatch(
				/email of item 0 may already have been sent: it was NOT sent again/,
			);
			expect(result.error?.description).toMatch(/Check whether it arrived before sending it again/);
		},
	);

	it('a timeout after the API received it: one recorded send, not re-sent', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, path: '^/v1/communicate/email$' });
		const credentials = sandboxCredential(sandbox());
		credentials.flipletApi.communicateTimeout = 0.3;
		const result = await runNode({
			parameters: emailParameters(),
			input: [{ json: { to: 'ann@example.com', name: 'Ann' } }],
			credentials,
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/timeout/i);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(1);
		expect(sandbox().state.sent.emails).toHaveLength(1);
		expect(result.error?.description).toMatch(/may already have been sent: it was NOT sent again/);
	});

	it('after a failed request, says which earlier items were sent and which were not', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 503, path: '^/v1/communicate/email$' });
		const result = await runNode({
			parameters: emailParameters(),
			input: [{ json: { to: 'ann@example.com' } }, { json: { to: 'bob@example.com' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(1);
		expect(result.error?.description).toMatch(/Not sent: item 1\./);
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	it('with Continue On Fail, a failed batch marks each of its items and the next batch still goes', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 500, path: '/email/batch$' });
		const input: TestItem[] = [0, 1, 2].map((n) => ({ json: { to: `user${n}@example.com` } }));
		const result = await runNode({
			parameters: emailParameters({ sendInBatches: true, batchSize: 2 }),
			input,
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(2);
		expect(sandbox().state.sent.emails.map((e: any) => e.to[0].email)).toEqual([
			'user0@example.com',
			'user1@example.com',
			'user2@example.com',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json[0].description).toMatch(/email of items 0–1 may already have been sent/);
		expect(result.json[1].error).toBe(result.json[0].error);
		expect(result.json[2]).toEqual({
			sent: true,
			to: ['user2@example.com'],
			subject: 'Hello undefined',
		});
	});
});

describe('Email → rate limit', () => {
	it('waits as a 429 asks and re-sends only refused requests (each email recorded once)', async () => {
		sandbox().rateLimiter.enabled = true;
		sandbox().rateLimiter.limits.communicate = { limit: 2, windowMs: 400 };
		try {
			const input: TestItem[] = [0, 1, 2, 3, 4].map((n) => ({
				json: { to: `user${n}@example.com` },
			}));
			const result = await runNode({
				parameters: emailParameters(),
				input,
				credentials: sandboxCredential(sandbox()),
			});
			expect(result.error).toBeUndefined();
			const statuses = apiRequests(sandbox(), /^\/v1\/communicate/).map((r) => r.status);
			expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
			expect(statuses.filter((s) => s === 200)).toHaveLength(5);
			expect(sandbox().state.sent.emails.map((e: any) => e.to[0].email)).toEqual(
				input.map((item) => item.json.to),
			);
		} finally {
			sandbox().rateLimiter.enabled = false;
		}
	});
});
