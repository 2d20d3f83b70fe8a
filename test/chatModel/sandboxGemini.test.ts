import { callSandbox, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const PATH = '/v1/apps/11/ai/completions';
const DECLARATIONS = [
	{
		name: 'Staff_Directory',
		description: 'Reads the staff entries',
		parameters: { type: 'object', properties: { limit: { type: 'number' } } },
	},
	{ name: 'Send_Email' },
];
const TOOLS = [{ functionDeclarations: DECLARATIONS }];
const user = (text: string) => ({ role: 'user', parts: [{ text }] });

const complete = (body: Record<string, unknown>, model = 'gemini-2.5-flash') =>
	callSandbox(sandbox(), 'POST', PATH, { model, aiProvider: 'gemini', ...body }, TOKENS.app);

async function candidate(body: Record<string, unknown>, model?: string) {
	const response = await complete(body, model);
	expect(response.body).not.toHaveProperty('message');
	expect(response.status).toBe(200);
	return response.body.candidates[0] as {
		content: { role: string; parts: Array<Record<string, unknown>> };
		finishReason: string;
	};
}

const textOf = (answer: Awaited<ReturnType<typeof candidate>>) =>
	answer.content.parts.map((part) => part.text).join('');

describe('sandbox AI: Gemini chat turns (generate-content)', () => {
	it('calls the declared function the user names first, with the JSON object of the text, signed by a thinking model', async () => {
		const answer = await candidate({
			systemInstruction: { parts: [{ text: 'Mention Send_Email here: not the user.' }] },
			tools: TOOLS,
			contents: [user('Please ask the staff directory {"limit": 3} and Send_Email later')],
		});
		expect(answer).toEqual({
			content: {
				role: 'model',
				parts: [
					{
						functionCall: { name: 'Staff_Directory', args: { limit: 3 } },
						thoughtSignature: Buffer.from('sandbox-thought:Staff_Directory').toString('base64'),
					},
				],
			},
			finishReason: 'STOP',
			index: 0,
		});
		expect(sandbox().state.ai.credits[11]).toBe(999);
		const unsigned = await candidate(
			{ tools: TOOLS, contents: [user('Ask Staff_Directory')] },
			'gemini-2.5-flash-lite',
		);
		expect(unsigned.content.parts).toEqual([
			{ functionCall: { name: 'Staff_Directory', args: {} } },
		]);
	});

	it('answers text quoting the function responses of the last turn', async () => {
		const answer = await candidate({
			tools: TOOLS,
			contents: [
				user('Ask Staff_Directory and Send_Email'),
				{
					role: 'model',
					parts: [
						{ functionCall: { name: 'Staff_Directory', args: {} } },
						{ functionCall: { name: 'Send_Email', args: {} } },
					],
				},
				{
					role: 'user',
					parts: [
						{
							functionResponse: {
								name: 'Staff_Directory',
								response: { output: '[{"Name":"Eve"}]' },
							},
						},
						{ functionResponse: { name: 'Send_Email', response: { error: 'No address' } } },
					],
				},
			],
		});
		expect(textOf(answer)).toBe(
			'Staff_Directory answered: [{"Name":"Eve"}]\nSend_Email answered: No address',
		);
	});

	it('answers as before when no declared function is named, and echoes the last user text', async () => {
		const answer = await candidate({ tools: TOOLS, contents: [user('Hello {"a": 1}')] });
		expect(textOf(answer)).toBe('Echo: Hello {"a": 1}');
	});

	it('answers a responseSchema with an instance of it, in either case of type names, and stops at a stop sequence', async () => {
		const schema = {
			type: 'OBJECT',
			properties: { title: { type: 'string' }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
			required: ['title'],
		};
		const json = await candidate({
			contents: [user('Name this ticket')],
			generationConfig: { responseMimeType: 'application/json', responseSchema: schema },
		});
		expect(JSON.parse(textOf(json))).toEqual({
			title: 'Echo: Name this ticket',
			tags: ['Echo: Name this ticket'],
		});
		const stopped = await candidate({
			contents: [user('one two STOP three')],
			generationConfig: { stopSequences: ['STOP'], temperature: 0.2, topP: 0.5, topK: 20 },
		});
		expect(textOf(stopped)).toBe('Echo: one two ');
	});

	it.each([
		[{ temperature: 0.2 }, /Unknown name "temperature": Cannot find field/],
		[{ messages: [] }, /exactly one input format/],
		[
			{ tools: [{ type: 'function', function: { name: 'Staff_Directory' } }] },
			/Unknown name "type" at 'tools\[0\]'/,
		],
		[
			{
				tools: [
					{
						functionDeclarations: [
							{
								name: 'Staff_Directory',
								parameters: {
									type: 'object',
									properties: { a: { type: 'string' } },
									additionalProperties: false,
								},
							},
						],
					},
				],
			},
			/Unknown name "additionalProperties" at 'tools\[0\]\.function_declarations\[0\]\.parameters'/,
		],
		[
			{
				tools: [
					{
						functionDeclarations: [
							{ name: 'Staff_Directory', parameters: { type: 'object', properties: {} } },
						],
					},
				],
			},
			/parameters\.properties: should be non-empty for OBJECT type/,
		],
		[{ tools: [{ functionDeclarations: [{ name: '1 bad name' }] }] }, /Invalid function name/],
		[{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /valid role: user, model/],
		[{ contents: [{ role: 'user', parts: [] }] }, /contents\.parts must not be empty/],
		[
			{ generationConfig: { reasoning_effort: 'low' } },
			/Unknown name "reasoning_effort" at 'generation_config'/,
		],
		[{ generationConfig: { topP: 2 } }, /top_p: must be a number from 0 to 1/],
		[{ generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] } }, /at most 5/],
		[
			{
				generationConfig: {
					responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
				},
			},
			/must be application\/json or text\/x\.enum when response_schema is set/,
		],
		[
			{ tools: TOOLS, generationConfig: { responseMimeType: 'application/json' } },
			/Function calling with a response mime type: 'application\/json' is unsupported/,
		],
	])('refuses %j as Gemini does, before any charge', async (change, message) => {
		const refused = await complete({ contents: [user('Ask Staff_Directory')], ...change });
		expect(refused.status).toBe(400);
		expect(refused.body.message).toMatch(message);
		expect(sandbox().state.ai.calls).toHaveLength(0);
	});

	it.each([
		[
			{ systemInstruction: { parts: [{ text: 'Be brief.' }] } },
			'Developer instruction is not enabled',
		],
		[{ tools: TOOLS }, 'Function calling is not enabled'],
		[{ generationConfig: { responseMimeType: 'application/json' } }, 'JSON mode is not enabled'],
	])("refuses %j on Gemini's image model", async (change, message) => {
		const refused = await complete(
			{ contents: [user('Draw a cat')], ...change },
			'gemini-2.5-flash-image',
		);
		expect(refused.body.message).toBe(`${message} for models/gemini-2.5-flash-image`);
		const plain = await complete({ contents: [user('Draw a cat')] }, 'gemini-2.5-flash-image');
		expect(plain.status).toBe(200);
	});
});
