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
