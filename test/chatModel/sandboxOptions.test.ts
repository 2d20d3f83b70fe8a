import { callSandbox, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const PATH = '/v1/apps/11/ai/completions';
const USER = [{ role: 'user', content: 'Sort these notes' }];

const complete = (body: Record<string, unknown>) =>
	callSandbox(
		sandbox(),
		'POST',
		PATH,
		{ model: 'gpt-4o-mini', messages: USER, ...body },
		TOKENS.app,
	);

const schemaFormat = (schema: object, strict: boolean) => ({
	response_format: { type: 'json_schema', json_schema: { name: 'notes', schema, strict } },
});

const STRICT = {
	type: 'object',
	properties: { label: { type: 'string', enum: ['a', 'b'] }, count: { type: 'integer' } },
	required: ['label', 'count'],
	additionalProperties: false,
};

describe('sandbox AI: structured output and pass-through options (chat completions)', () => {
	it('answers a json_schema response format with an instance of the schema', async () => {
		const answer = await complete(schemaFormat(STRICT, true));
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body.choices[0].message.content)).toEqual({ label: 'a', count: 0 });
	});

	it('refuses strict mode for a schema that does not allow it, before any charge', async () => {
		const open = { type: 'object', properties: { label: { type: 'string' } } };
		const refused = await complete(schemaFormat(open, true));
		expect(refused.status).toBe(400);
		expect(refused.body.message).toMatch(/Invalid schema for response_format "notes"/);
		expect(sandbox().state.ai.calls).toHaveLength(0);
		const loose = await complete(schemaFormat(open, false));
		expect(JSON.parse(loose.body.choices[0].message.content)).toEqual({
			label: 'Echo: Sort these notes',
		});
	});

	it('takes top_p, the penalties, seed and n, and stops at a stop sequence', async () => {
		const answer = await complete({
			top_p: 0.5,
			presence_penalty: 1,
			frequency_penalty: -1,
			seed: 7,
			n: 2,
			stop: ['these'],
		});
		expect(answer.status).toBe(200);
		expect(
			answer.body.choices.map((choice: { message: { content: string } }) => choice.message.content),
		).toEqual(['Echo: Sort ', 'Echo: Sort ']);
	});

	it.each([
		[{ top_p: 2 }, /"top_p" must be a number from 0 to 1/],
		[{ presence_penalty: 3 }, /"presence_penalty" must be a number from -2 to 2/],
		[{ seed: 1.5 }, /"seed" must be a whole number/],
		[{ stop: ['a', 'b', 'c', 'd', 'e'] }, /"stop" must be a string or an array of up to 4/],
		[{ model: 'o4-mini', top_p: 0.5 }, /Unsupported parameter: "top_p"/],
		[{ model: 'gpt-5', temperature: 0.2 }, /Unsupported parameter: "temperature"/],
	])('refuses %j as the provider does', async (options, message) => {
		const refused = await complete(options);
		expect(refused.status).toBe(400);
		expect(refused.body.message).toMatch(message);
	});
});

// What OpenAI's models refuse, and how a forced function call is answered.
const NOTES_SCHEMA = {
	type: 'object',
	properties: { label: { type: 'string' }, count: { type: 'integer' } },
	required: ['label', 'count'],
	additionalProperties: false,
};
const JSON_SCHEMA = {
	type: 'json_schema',
	json_schema: { name: 'notes', schema: NOTES_SCHEMA, strict: true },
};
const NOTES_FUNCTION = {
	type: 'function',
	function: { name: 'notes', parameters: NOTES_SCHEMA, strict: true },
};
const FORCE_NOTES = { type: 'function', function: { name: 'notes' } };

const refusalOf = (type: string, parameter = 'response_format') =>
	`Invalid parameter: '${parameter}' of type '${type}' is not supported with this model.${
		type === 'json_schema'
			? ' Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs'
			: ''
	}`;

describe('sandbox AI: response formats each model takes, and forced function calls', () => {
	it.each([
		['gpt-4', 'json_schema'],
		['gpt-4', 'json_object'],
		['gpt-3.5-turbo', 'json_schema'],
		['gpt-4-0125-preview', 'json_schema'],
		['gpt-4o-2024-05-13', 'json_schema'],
	])('refuses %s a %s response format as OpenAI does, before any charge', async (model, type) => {
		const format = type === 'json_schema' ? JSON_SCHEMA : { type };
		const refused = await complete({ model, response_format: format });
		expect(refused).toEqual({
			status: 400,
			body: { message: refusalOf(type), type: 'ai.provider' },
		});
		expect(sandbox().state.ai.calls).toHaveLength(0);
		expect(sandbox().state.ai.credits?.[11]).toBeUndefined();
	});

	it.each([
		['gpt-3.5-turbo', 'json_object'],
		['gpt-4-0125-preview', 'json_object'],
		['gpt-4o-2024-05-13', 'json_object'],
		['gpt-4o-mini', 'json_schema'],
		['gpt-4o-2024-08-06', 'json_schema'],
		['gpt-4.1', 'json_schema'],
		['gpt-5', 'json_schema'],
		['o3-mini', 'json_schema'],
	])('takes %s with a %s response format', async (model, type) => {
		const format = type === 'json_schema' ? JSON_SCHEMA : { type };
		const answer = await complete({
			model,
			messages: [{ role: 'user', content: 'Sort these notes in JSON' }],
			response_format: format,
		});
		expect(answer.status).toBe(200);
		expect(() => JSON.parse(answer.body.choices[0].message.content)).not.toThrow();
	});

	it("refuses the responses format's text.format the same way", async () => {
		const refused = await complete({
			model: 'gpt-4',
			messages: undefined,
			input: 'Sort these notes',
			useResponses: true,
			text: { format: { type: 'json_schema', name: 'notes', schema: NOTES_SCHEMA, strict: true } },
		});
		expect(refused.status).toBe(400);
		expect(refused.body.message).toBe(refusalOf('json_schema', 'text.format'));
	});

	it.each([
		[
			'a tool choice without tools',
			{ tool_choice: FORCE_NOTES },
			"Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
		],
		[
			'a forced function not declared',
			{ tools: [NOTES_FUNCTION], tool_choice: { type: 'function', function: { name: 'other' } } },
			`Invalid value for 'tool_choice': no function named "other" was declared in 'tools'.`,
		],
		[
			'a strict function whose schema strict mode does not take',
			{
				tools: [
					{
						type: 'function',
						function: {
							name: 'notes',
							strict: true,
							parameters: { type: 'object', properties: { label: { type: 'string' } } },
						},
					},
				],
			},
			`Invalid schema for function 'notes': schema: "additionalProperties" must be false in strict mode.`,
		],
	])('refuses %s as OpenAI does, before any charge', async (_, body, message) => {
		const refused = await complete(body);
		expect(refused).toEqual({ status: 400, body: { message, type: 'ai.provider' } });
		expect(sandbox().state.ai.calls).toHaveLength(0);
	});

	it("finds in JSON mode a schema a system message carries, as the Information Extractor's prompt does", async () => {
		const answer = await complete({
			model: 'gpt-3.5-turbo',
			messages: [
				{
					role: 'system',
					content: `Extract the notes.\n\`\`\`json\n${JSON.stringify(NOTES_SCHEMA)}\n\`\`\``,
				},
				{ role: 'user', content: 'Two notes about the printer' },
			],
			response_format: { type: 'json_object' },
		});
		expect(JSON.parse(answer.body.choices[0].message.content)).toEqual({
			label: 'Echo: Two notes about the printer',
			count: 0,
		});
	});
});
