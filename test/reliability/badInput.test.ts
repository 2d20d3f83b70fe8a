import {
	apiRequests,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type TestItem,
} from '../harness';
import { BAD_INPUT_GROUPS, type BadInputGroup } from './badInputCases';

const sandbox = useSandbox();

const itemFor = (group: BadInputGroup, value: unknown): TestItem =>
	group.item ? group.item(value) : { json: value === undefined ? {} : { v: value as string } };

const credentials = (group: BadInputGroup) =>
	sandboxCredential(sandbox(), group.token === 'org' ? TOKENS.org : TOKENS.app);

const describeValue = (value: unknown) =>
	value === undefined
		? 'undefined'
		: typeof value === 'string' && value.length > 60
			? `a ${value.length}-character string`
			: JSON.stringify(value);

/** A description that tells the user what to do: it starts from (or contains) an instruction. */
const SAYS_HOW_TO_FIX =
	/\b(give|pick|use|set|enter|remove|rename|choose|edit|switch|add|change|make|split|put|leave|send|write|select|map|convert|shorten|check|type|keep|turn|attach|upload|fill|filter|fix|provide|try)\b/i;

const totalCases = BAD_INPUT_GROUPS.reduce((sum, group) => sum + group.values.length, 0);

describe(`${totalCases} bad inputs across operations`, () => {
	it('are at least 100', () => {
		expect(totalCases).toBeGreaterThanOrEqual(100);
	});

	describe.each(BAD_INPUT_GROUPS.map((group) => [group.operation, group] as const))(
		'%s',
		(_name, group) => {
			it(`refuses ${group.values.map(describeValue).join(', ')} item by item, naming the field`, async () => {
				const result = await runNode({
					parameters: group.parameters,
					input: group.values.map((value) => itemFor(group, value)),
					credentials: credentials(group),
					continueOnFail: true,
				});

				expect(result.error).toBeUndefined();
				const writes = apiRequests(sandbox()).filter((request) => request.method !== 'GET');
				const reads = apiRequests(sandbox()).filter((request) => request.method === 'GET');
				expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([]);
				if (!group.readsAllowed) expect(reads.map((request) => request.path)).toEqual([]);
				const outcomes = result.items.map((item, index) => ({
					value: describeValue(group.values[index]),
					item: ([item.pairedItem].flat()[0] as { item: number }).item,
					error: item.json.error,
					description: item.json.description,
				}));
				expect(outcomes).toEqual(
					group.values.map((value, index) => ({
						value: describeValue(value),
						item: index,
						error: expect.any(String),
						description: expect.any(String),
					})),
				);
				for (const outcome of outcomes) {
					expect({ value: outcome.value, message: outcome.error }).toEqual({
						value: outcome.value,
						message: expect.stringMatching(group.field),
					});
					expect({ value: outcome.value, fix: outcome.description }).toEqual({
						value: outcome.value,
						fix: expect.stringMatching(SAYS_HOW_TO_FIX),
					});
					if (group.fix) expect(outcome.description).toMatch(group.fix);
				}
			});

			it('stops the node with a node error naming the item when not continuing on fail', async () => {
				const result = await runNode({
					parameters: group.parameters,
					input: [itemFor(group, group.values[0])],
					credentials: credentials(group),
				});
				expect(['NodeOperationError', 'NodeApiError']).toContain(result.error?.name);
				expect(result.error?.context?.itemIndex).toBe(0);
				expect(result.error?.description).toBeTruthy();
				expect(apiRequests(sandbox()).filter((r) => r.method !== 'GET')).toEqual([]);
			});
		},
	);
});

describe('Sync refuses bad settings and rows before writing', () => {
	const STAFF = { __rl: true, mode: 'id', value: '100' };
	const rows: TestItem[] = [{ json: { Email: 'new@x.io', Name: 'New' } }];

	it.each([
		['a chunk size of 0', { syncOptions: { chunkSize: 0 } }, /Chunk size/],
		['a chunk size over the maximum', { syncOptions: { chunkSize: 50_001 } }, /Chunk size/],
		['no key column', { keyColumns: ' , ' }, /key column/i],
		[
			'a key column from an expression that resolves to undefined',
			{ keyColumns: '={{ $json.nothing }}' },
			/key column/i,
		],
		['an unknown sync mode', { syncMode: 'everything' }, /sync mode/i],
	])('%s', async (_name, overrides, message) => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'sync',
				dataSource: STAFF,
				keyColumns: 'Email',
				...overrides,
			},
			input: rows,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toBeTruthy();
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it.each([false, true])(
		'a row with a __proto__ key is never committed (typecast: %s)',
		async (typecast) => {
			const polluted = JSON.parse('{"Email": "p@x.io", "__proto__": {"admin": true}}');
			const result = await runNode({
				parameters: {
					resource: 'entry',
					operation: 'sync',
					dataSource: STAFF,
					keyColumns: 'Email',
					syncOptions: { typecast },
				},
				input: [...rows, { json: polluted }],
				credentials: sandboxCredential(sandbox()),
			});
			expect(`${result.error?.message} ${result.error?.description}`).toMatch(/__proto__/);
			expect(
				apiRequests(sandbox()).filter((r) => r.method !== 'GET' && !/query$/.test(r.path)),
			).toEqual([]);
			expect(({} as { admin?: boolean }).admin).toBeUndefined();
		},
	);
});

describe('an optional field whose expression resolves to undefined is left out, not sent as "undefined"', () => {
	const nothing = '={{ $json.nothing }}';

	it('Data Source → Get Many: Type', async () => {
		const result = await runNode({
			parameters: {
				resource: 'dataSource',
				operation: 'getMany',
				scope: 'app',
				app: { __rl: true, mode: 'id', value: '11' },
				type: nothing,
				returnAll: true,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /^\/v1\/data-sources$/).map((r) => r.query)).toEqual([
			{ appId: '11' },
		]);
		expect(result.json.map((ds) => ds.name)).toContain('Staff');
	});

	it('AI → Generate Text: System Message', async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateText',
				app: { __rl: true, mode: 'id', value: '11' },
				prompt: 'Hello',
				systemMessage: nothing,
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/ai\/completions$/);
		expect(request.body.messages).toEqual([{ role: 'user', content: 'Hello' }]);
		expect(result.json).toHaveLength(1);
	});

	it('Entry → Get Many: Columns to Return', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				returnAll: true,
				options: { attributes: nothing },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/data\/query$/);
		expect(request.body.attributes).toBeUndefined();
		expect(result.json[0].data).toMatchObject({ Name: 'Alice Martin', Email: 'alice@example.com' });
	});
});

describe('batch sends refuse a batch size that is not a whole number of at least 1', () => {
	it.each(['ten', 0, -1, 2.5])('%j', async (batchSize) => {
		const result = await runNode({
			parameters: {
				resource: 'sms',
				operation: 'send',
				to: '+447700900123',
				message: 'Hi',
				sendInBatches: true,
				batchSize: '={{ $json.v }}',
			},
			input: [{ json: { v: batchSize } }],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/Batch Size/);
		expect(result.error?.description).toBeTruthy();
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toEqual([]);
	});
});

describe('a huge but valid value is neither refused nor cut', () => {
	it('Entry → Insert writes a 2 MB text column intact', async () => {
		const huge = 'é'.repeat(1_000_000);
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				columns: { mappingMode: 'autoMapInputData', value: null },
			},
			input: [{ json: { Name: 'Big', Notes: huge } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/data$/);
		// Compared as booleans: a failure should not print two megabytes.
		expect(request.body.Notes === huge).toBe(true);
		expect(request.bytes).toBeGreaterThan(2_000_000);
		const written = (result.json[0].data ?? result.json[0]) as { Notes?: string };
		expect(written.Notes === huge).toBe(true);
	});
});
