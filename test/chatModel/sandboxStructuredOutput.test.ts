import { callSandbox, TOKENS, useSandbox } from '../harness';

// The sandbox's own contract for structured output, called over plain HTTP: what OpenAI's models
// refuse, and how a forced function call is answered.
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

const SCHEMA = {
	type: 'object',
	properties: { label: { type: 'string' }, count: { type: 'integer' } },
	required: ['label', 'count'],
	additionalProperties: false,
};
const JSON_SCHEMA = {
	type: 'json_schema',
	json_schema: { name: 'notes', schema: SCHEMA, strict: true },
};
const NOTES_FUNCTION = {
	type: 'function',
	function: { name: 'notes', parameters: SCHEMA, strict: true },
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
			text: { format: { type: 'json_schema', name: 'notes', schema: SCHEMA, strict: true } },
		});
		expect(refused.status).toBe(400);
		expect(refused.body.message).toBe(refusalOf('json_schema', 'text.format'));
	});

	it('answers a forced function with one call of it, its arguments an instance of its parameters', async () => {
		const answer = await complete({
			model: 'gpt-4',
			tools: [NOTES_FUNCTION],
			tool_choice: FORCE_NOTES,
		});
		expect(answer.status).toBe(200);
		const [choice] = answer.body.choices;
		expect(choice.finish_reason).toBe('stop');
		expect(choice.message).toEqual({
			role: 'assistant',
			content: null,
			refusal: null,
			tool_calls: [
				{
					id: 'call_sandbox_1',
					type: 'function',
					function: {
						name: 'notes',
						arguments: JSON.stringify({ label: 'Echo: Sort these notes', count: 0 }),
					},
				},
			],
		});
	});

	it('calls no tool with tool_choice none, even when the user names one', async () => {
		const answer = await complete({
			messages: [{ role: 'user', content: 'Use notes' }],
			tools: [NOTES_FUNCTION],
			tool_choice: 'none',
		});
		expect(answer.body.choices[0].message).toEqual(
			expect.objectContaining({ content: 'Echo: Use notes' }),
		);
		expect(answer.body.choices[0].message.tool_calls).toBeUndefined();
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
					content: `Extract the notes.\n\`\`\`json\n${JSON.stringify(SCHEMA)}\n\`\`\``,
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
