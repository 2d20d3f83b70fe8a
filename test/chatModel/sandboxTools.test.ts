import { callSandbox, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const PATH = '/v1/apps/11/ai/completions';
const TOOLS = [
	{ type: 'function', function: { name: 'Staff_Directory', parameters: { type: 'object' } } },
	{ type: 'function', function: { name: 'Send_Email', parameters: { type: 'object' } } },
];

async function complete(body: Record<string, unknown>) {
	const response = await callSandbox(sandbox(), 'POST', PATH, body, TOKENS.app);
	expect(response.status).toBe(200);
	return (
		response.body as { choices: Array<{ message: { content: string }; finish_reason: string }> }
	).choices[0];
}

/** The assistant message of the sandbox's first tool call: one call of `name` with `args`. */
const firstCall = (name: string, args: string) => ({
	role: 'assistant',
	content: null,
	refusal: null,
	tool_calls: [{ id: 'call_sandbox_1', type: 'function', function: { name, arguments: args } }],
});

describe('sandbox AI: deterministic tool calling (chat completions)', () => {
	it('calls the declared tool the user names first, with the JSON object of the text', async () => {
		const choice = await complete({
			model: 'gpt-4o-mini',
			tools: TOOLS,
			messages: [
				{ role: 'system', content: 'Mention Send_Email here: not the user.' },
				{ role: 'user', content: 'Please send email after asking staff directory {"limit": 3}' },
			],
		});
		expect(choice.finish_reason).toBe('tool_calls');
		expect(choice.message).toEqual(firstCall('Send_Email', '{"limit":3}'));
		expect(sandbox().state.ai.credits[11]).toBe(999);
	});

	it('answers a forced function with one call of it, its arguments an instance of its parameters', async () => {
		const notes = {
			type: 'object',
			properties: { label: { type: 'string' }, count: { type: 'integer' } },
			required: ['label', 'count'],
			additionalProperties: false,
		};
		const choice = await complete({
			model: 'gpt-4',
			tools: [
				...TOOLS,
				{ type: 'function', function: { name: 'notes', parameters: notes, strict: true } },
			],
			tool_choice: { type: 'function', function: { name: 'notes' } },
			messages: [{ role: 'user', content: 'Ask Staff_Directory for notes' }],
		});
		// OpenAI ends a forced call with "stop", and the named tool wins over the one the user names.
		expect(choice.finish_reason).toBe('stop');
		expect(choice.message).toEqual(
			firstCall(
				'notes',
				JSON.stringify({ label: 'Echo: Ask Staff_Directory for notes', count: 0 }),
			),
		);
	});

	it('calls no tool with tool_choice none, even when the user names one', async () => {
		const choice = await complete({
			model: 'gpt-4o-mini',
			tools: TOOLS,
			tool_choice: 'none',
			messages: [{ role: 'user', content: 'Ask Staff_Directory' }],
		});
		expect(choice.message).toEqual(
			expect.objectContaining({ content: 'Echo: Ask Staff_Directory' }),
		);
		expect(choice.message).not.toHaveProperty('tool_calls');
	});

	it('answers text quoting the tool result when the last message is one', async () => {
		const choice = await complete({
			model: 'gpt-4o-mini',
			tools: TOOLS,
			messages: [
				{ role: 'user', content: 'Ask Staff_Directory' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'c1', type: 'function', function: { name: 'Staff_Directory', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'c1', content: '[{"Name":"Eve"}]' },
			],
		});
		expect(choice.finish_reason).toBe('stop');
		expect(choice.message.content).toBe('Staff_Directory answered: [{"Name":"Eve"}]');
	});

	it('answers as before when no declared tool is named, or no tools are declared', async () => {
		const named = await complete({
			model: 'gpt-4o-mini',
			tools: TOOLS,
			messages: [{ role: 'user', content: 'Hello {"a": 1}' }],
		});
		expect(named.message.content).toBe('Echo: Hello {"a": 1}');
		const plain = await complete({
			model: 'gpt-4o-mini',
			messages: [{ role: 'user', content: 'Ask Staff_Directory' }],
		});
		expect(plain.message.content).toBe('Echo: Ask Staff_Directory');
	});

	it('answers an instance of the JSON schema a prompt carries, in JSON mode only', async () => {
		const prompt =
			'Classify this\nFormat:\n```json\n{"type":"object","properties":{"output":{"type":"object","properties":{"label":{"type":"string"},"score":{"type":"number"},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}}}}}}\n```';
		const json = await complete({
			model: 'gpt-4o-mini',
			response_format: { type: 'json_object' },
			messages: [{ role: 'user', content: prompt }],
		});
		expect(JSON.parse(json.message.content)).toEqual({
			output: { label: 'Echo: Classify this', score: 0, tags: ['a'] },
		});
		const text = await complete({
			model: 'gpt-4o-mini',
			messages: [{ role: 'user', content: prompt }],
		});
		expect(text.message.content).toBe(`Echo: ${prompt}`);
	});
});
