import { COMPLETIONS } from '../ai/fixtures';
import { apiRequests, useSandbox } from '../harness';
import { IMAGE_URL } from './modelUser.node';
import { CHAT_MODEL_NODE, modelRunner, tracedUsage } from './runModel';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
const completions = () => apiRequests(sandbox(), COMPLETIONS);

/** An answer whose one tool call carries `args` as its arguments. */
function toolCallAnswer(args: string) {
	return {
		id: 'chatcmpl-x',
		choices: [
			{
				index: 0,
				finish_reason: 'tool_calls',
				message: {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: 'call_1',
							type: 'function',
							function: { name: 'Staff_Directory', arguments: args },
						},
					],
				},
			},
		],
	};
}

describe('Fliplet Chat Model: answers and errors (through n8n-core)', () => {
	it.each([
		['text that is not JSON', 'limit: 2'],
		['a JSON array', '[2]'],
		['a JSON string', '"two"'],
	])(
		'refuses a tool call whose arguments are %s, saying so, instead of running the tool with {}',
		async (_, args) => {
			sandbox().injectFault({
				mode: 'status-before',
				status: 200,
				path: 'ai/completions',
				body: toolCallAnswer(args),
			});
			const result = await runModel('tools', 'Ask Staff_Directory');
			expect(result.error?.message).toBe(
				'The model called the tool "Staff_Directory" with arguments that are not a JSON object',
			);
			expect(result.error?.description).toContain(`the model sent ${JSON.stringify(args)}`);
			expect(result.error).toHaveProperty('functionality', 'configuration-node');
			expect(completions()).toHaveLength(1);
		},
	);

	it('reads a tool call without arguments as one with none', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 200,
			path: 'ai/completions',
			body: toolCallAnswer(''),
		});
		const result = await runModel('tools', 'Ask Staff_Directory');
		expect(result.error).toBeUndefined();
		expect((result.json[0] as { calls: unknown[] }).calls).toEqual([
			expect.objectContaining({ name: 'Staff_Directory', args: {} }),
		]);
	});

	it('reports a refused call as an error of the sub-node, with what to change', async () => {
		sandbox().state.ai.credits = { 11: 0 };
		const result = await runModel('invoke', 'Hi');
		expect(result.error?.description).toMatch(/AI credits are used up/);
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect((result.error as { node?: { name: string } }).node?.name).toBe(CHAT_MODEL_NODE);
	});

	it('shows the tokens the platform counted in the run data, streamed or not', async () => {
		const invoked = await runModel('invoke', 'Hello there');
		expect(tracedUsage(invoked)).toEqual([
			{
				tokenUsage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
				estimated: false,
			},
		]);
		const streamed = await runModel('stream', 'Hello stream');
		expect(streamed.error).toBeUndefined();
		expect(tracedUsage(streamed)).toEqual([
			{
				tokenUsage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
				estimated: false,
			},
		]);
	});

	it('sends the images an agent passes as image_url blocks', async () => {
		const result = await runModel('image', 'What is in this picture?');
		expect(result.error).toBeUndefined();
		expect((completions()[0].body as { messages: unknown[] }).messages[1]).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'What is in this picture?' },
				{ type: 'image_url', image_url: { url: IMAGE_URL, detail: 'low' } },
			],
		});
	});
});
