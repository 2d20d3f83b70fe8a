/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	faultNthRequest,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type RunOptions,
	type TestItem,
} from '../harness';
import {
	commitEachName,
	createTwoTokens,
	importEach,
	publishTwoApps,
	REFUSED,
	RETRY,
	runAiOnApp,
} from './operations';

const sandbox = useSandbox();

const recipients = (count: number): TestItem[] =>
	Array.from({ length: count }, (_, n) => ({ json: { to: `user${n}@example.com`, n } }));

function send(resource: 'email' | 'sms', options: Partial<RunOptions> & { batchSize?: number }) {
	const { batchSize, ...rest } = options;
	const batch = batchSize ? { sendInBatches: true, batchSize } : {};
	const parameters =
		resource === 'email'
			? {
					resource,
					operation: 'send',
					to: '={{ $json.to }}',
					subject: '=Hi {{ $json.n }}',
					...batch,
				}
			: {
					resource,
					operation: 'send',
					to: '={{ $json.to }}',
					message: '=Code {{ $json.n }}',
					...batch,
				};
	return runNode({ parameters, credentials: sandboxCredential(sandbox()), ...rest });
}

const emailedTo = () => sandbox().state.sent.emails.map((email: any) => email.to[0].email);
const texted = () => sandbox().state.sent.sms.map((sms: any) => sms.data.to);

describe('Retry On Fail never sends an email or SMS twice in one execution', () => {
	it('6 emails in batches of 2, batch 2 refused, retried by n8n: 6 emails, each once', async () => {
		faultNthRequest(
			sandbox(),
			{ method: 'POST', path: /^\/v1\/communicate\/email\/batch$/ },
			2,
			REFUSED,
		);
		const result = await send('email', {
			input: recipients(6),
			batchSize: 2,
			retryOnFail: RETRY,
		});
		expect(result.error).toBeUndefined();
		expect(emailedTo()).toEqual(recipients(6).map((item) => item.json.to));
		// Try 1: batch 1 sent, batch 2 refused. Try 2: batches 2 and 3 only.
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(4);
		expect(result.json.map((json) => json.fromEarlierTry ?? false)).toEqual([
			true,
			true,
			false,
			false,
			false,
			false,
		]);
		expect(result.json[0]).toEqual({
			sent: true,
			to: ['user0@example.com'],
			subject: 'Hi 0',
			fromEarlierTry: true,
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
		);
	});

	it('On Error → Continue with a bad address in item 0: n8n tries 3 times, each valid recipient gets 1 email', async () => {
		const input = [{ json: { to: 'not-an-address', n: 0 } }, ...recipients(3).slice(1)];
		const result = await send('email', { input, continueOnFail: true, retryOnFail: RETRY });
		expect(emailedTo()).toEqual(['user1@example.com', 'user2@example.com']);
		expect(result.json[0].error).toMatch(/invalid email address/);
		expect(result.json.slice(1)).toEqual([
			{ sent: true, to: ['user1@example.com'], subject: 'Hi 1', fromEarlierTry: true },
			{ sent: true, to: ['user2@example.com'], subject: 'Hi 2', fromEarlierTry: true },
		]);
	});

	it('an email whose answer was lost is not sent again by the retry, which stops there and says so', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /^\/v1\/communicate\/email$/ }, 2, {
			mode: 'drop-after',
		});
		const result = await send('email', { input: recipients(3), retryOnFail: RETRY });
		expect(emailedTo()).toEqual(['user0@example.com', 'user1@example.com']);
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'Item 1: the email may already have been sent by an earlier try of this node (Retry On Fail), so it was not sent again',
		);
		expect(result.error?.description).toMatch(
			/^That try failed with: Could not reach the Fliplet API/,
		);
		expect(result.error?.description).toMatch(
			/Already sent before this error: item 0 — do not run them again\. Not sent: item 2\./,
		);
		expect(result.error?.context?.data).toEqual({
			outcomes: [
				{
					item: 0,
					outcome: 'sent',
					output: [{ sent: true, to: ['user0@example.com'], subject: 'Hi 0' }],
				},
				{ item: 1, outcome: 'may have been sent' },
				{ item: 2, outcome: 'not sent' },
			],
		});
	});

	it('SMS one by one and in batches: the retry sends only what was not sent', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /^\/v1\/communicate\/sms$/ }, 2, REFUSED);
		const numbers = (count: number): TestItem[] =>
			Array.from({ length: count }, (_, n) => ({ json: { to: `+4477009001${n}0`, n } }));
		const single = await send('sms', { input: numbers(3), retryOnFail: RETRY });
		expect(single.error).toBeUndefined();
		expect(texted()).toEqual(numbers(3).map((item) => item.json.to));

		sandbox().reset();
		faultNthRequest(
			sandbox(),
			{ method: 'POST', path: /^\/v1\/communicate\/sms\/batch$/ },
			2,
			REFUSED,
		);
		const batched = await send('sms', { input: numbers(5), batchSize: 2, retryOnFail: RETRY });
		expect(batched.error).toBeUndefined();
		expect(texted()).toEqual(numbers(5).map((item) => item.json.to));
		expect(batched.json.map((json) => json.fromEarlierTry ?? false)).toEqual([
			true,
			true,
			false,
			false,
			false,
		]);
	});

	it('a new execution is not a retry: it sends again', async () => {
		await send('email', { input: recipients(1), retryOnFail: RETRY });
		await send('email', { input: recipients(1), retryOnFail: RETRY });
		expect(emailedTo()).toEqual(['user0@example.com', 'user0@example.com']);
	});
});

describe('Retry On Fail never creates a notification twice in one execution', () => {
	const titles = (count: number): TestItem[] =>
		Array.from({ length: count }, (_, n) => ({ json: { title: `N${n}` } }));
	const created = () =>
		sandbox()
			.state.notifications.map((notification: any) => notification.data?.title)
			.filter((title: unknown) => typeof title === 'string' && /^N\d$/.test(title));

	function createNotifications(operation: string, input: TestItem[], extra: object = {}) {
		return runNode({
			parameters: {
				resource: 'notification',
				operation,
				app: { __rl: true, mode: 'id', value: '11' },
				status: 'draft',
				title: '={{ $json.title }}',
				...extra,
			},
			input,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			retryOnFail: RETRY,
		});
	}

	it('Create in Batch, batch 2 dropped after the server created it: 4 created once each, and the error says which', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/notifications\/batch$/ }, 2, {
			mode: 'drop-after',
		});
		const result = await createNotifications('createBatch', titles(6), { batchSize: 2 });
		expect(created()).toEqual(['N0', 'N1', 'N2', 'N3']);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/^Item 2: the notification may already have been created by an earlier try/,
		);
		expect(result.error?.description).toMatch(
			/The notification of items 2–3 may already have been created: it was NOT sent again automatically/,
		);
		const ids = sandbox()
			.state.notifications.filter((n: any) => ['N0', 'N1'].includes(n.data?.title))
			.map((n: any) => n.id);
		expect(result.error?.description).toMatch(
			`Already created before this error: items 0–1 (ids ${ids.join(', ')}) — do not run them again. Not created: items 4–5.`,
		);
		const outcomes = (result.error?.context?.data as any).outcomes;
		expect(outcomes.map((o: any) => o.outcome)).toEqual([
			'created',
			'created',
			'may have been created',
			'may have been created',
			'not created',
			'not created',
		]);
		expect(outcomes[0].output[0]).toMatchObject({ id: ids[0], data: { title: 'N0' } });
	});

	it('Create, item 1 refused once: the retry creates items 1 and 2 only', async () => {
		faultNthRequest(sandbox(), { method: 'PUT', path: /\/notifications$/ }, 2, REFUSED);
		const result = await createNotifications('create', titles(3));
		expect(result.error).toBeUndefined();
		expect(created()).toEqual(['N0', 'N1', 'N2']);
		expect(
			result.json.map((json) => [json.id !== undefined, json.fromEarlierTry ?? false]),
		).toEqual([
			[true, true],
			[true, false],
			[true, false],
		]);
	});
});

describe('Retry On Fail never publishes, creates a token or makes an AI request twice', () => {
	it('App → Publish of two apps, the second refused once: each app gets one release', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/publish$/ }, 2, REFUSED);
		const releases = () => sandbox().state.apps.map((app: any) => app.releases?.length ?? 0);
		const before = releases();
		const result = await publishTwoApps(sandbox(), { retryOnFail: RETRY });
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/publish$/).map((r) => r.path)).toEqual([
			'/v1/apps/11/publish',
			'/v1/apps/21/publish',
			'/v1/apps/21/publish',
		]);
		const added = releases().map((count: number, i: number) => count - before[i]);
		expect(added.filter((count: number) => count > 0)).toEqual([1, 1]);
		expect(result.json.map((json) => [json.id, json.fromEarlierTry ?? false])).toEqual([
			[10, true],
			[20, false],
		]);
	});

	it('Organization Token → Create of two, the second refused once: two tokens, the first secret kept', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/tokens$/ }, 2, REFUSED);
		const before = sandbox().state.tokens.size;
		const result = await createTwoTokens(sandbox(), { retryOnFail: RETRY });
		expect(result.error).toBeUndefined();
		expect(sandbox().state.tokens.size).toBe(before + 2);
		expect(sandbox().state.tokens.has(result.json[0].token)).toBe(true);
		expect(result.json.map((json) => [json.name, json.fromEarlierTry ?? false])).toEqual([
			['First', true],
			['Second', false],
		]);
	});

	it('AI → Generate Text of two prompts, the second refused once: three requests, not four', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/ai\/completions$/ }, 2, REFUSED);
		const result = await runAiOnApp(
			sandbox(),
			{ operation: 'generateText', model: 'gpt-4o-mini', prompt: '={{ $json.prompt }}' },
			[{ prompt: 'One' }, { prompt: 'Two' }],
			{ retryOnFail: RETRY },
		);
		expect(result.error).toBeUndefined();
		expect(
			apiRequests(sandbox(), /\/ai\/completions$/).map((r) => r.body.messages.at(-1).content),
		).toEqual(['One', 'Two', 'Two']);
		expect(result.json.map((json) => json.fromEarlierTry ?? false)).toEqual([true, false]);
	});

	it('AI → Create Embeddings in batches of 2, batch 2 refused once: 3 requests, not 4', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/ai\/embeddings$/ }, 2, REFUSED);
		const result = await runAiOnApp(
			sandbox(),
			{ operation: 'createEmbeddings', inputSource: 'field', field: 'text', batchSize: 2 },
			['a', 'b', 'c', 'd'].map((text) => ({ text })),
			{ retryOnFail: RETRY },
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /\/ai\/embeddings$/).map((r) => r.body.input)).toEqual([
			['a', 'b'],
			['c', 'd'],
			['c', 'd'],
		]);
		expect(result.json.map((json) => [json.text, json.fromEarlierTry ?? false])).toEqual([
			['a', true],
			['b', true],
			['c', false],
			['d', false],
		]);
	});

	it('Entry → Commit of two items and Import into two data sources: the retry redoes only the refused one', async () => {
		const names = () =>
			sandbox()
				.state.entries.filter((entry: any) => [100, 101].includes(entry.dataSourceId))
				.map((entry: any) => entry.data.Name)
				.filter((name: string) => /^New /.test(name));
		faultNthRequest(sandbox(), { method: 'POST', path: /\/commit$/ }, 2, REFUSED);
		const commit = await commitEachName(sandbox(), ['New A', 'New B'], { retryOnFail: RETRY });
		expect(commit.error).toBeUndefined();
		expect(names()).toEqual(['New A', 'New B']);

		faultNthRequest(sandbox(), { method: 'POST', path: /\/data$/ }, 2, REFUSED);
		const imported = await importEach(
			sandbox(),
			[
				{ ds: 100, Name: 'New C' },
				{ ds: 101, Name: 'New D' },
			],
			{ retryOnFail: RETRY },
		);
		expect(imported.error).toBeUndefined();
		expect(names().sort()).toEqual(['New A', 'New B', 'New C', 'New D']);
		expect(imported.json.map((json) => json.fromEarlierTry ?? false)).toEqual([true, false]);
	});
});
