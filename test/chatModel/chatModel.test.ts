import { apiRequests, faultNthRequest, sandboxCredential, useSandbox } from '../harness';
import { COMPLETIONS } from '../ai/fixtures';
import { HELLO_THERE_ANSWER, modelRunner } from './runModel';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);

const completions = () => apiRequests(sandbox(), COMPLETIONS);
const MODELS = ['gpt-4o-mini', 'gemini-2.5-flash'];
const onModel = (value: string) => ({ model: { __rl: true, mode: 'list', value } });

describe('Fliplet Chat Model, used by an AI node through n8n-core', () => {
	it('sends the conversation in the chat-completions format and reads the answer and usage', async () => {
		const result = await runModel('invoke', 'Hello there', {
			options: { temperature: 0.3, maxTokens: 200, responseFormat: 'text' },
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([HELLO_THERE_ANSWER]);
		expect(completions().map((request) => request.body)).toEqual([
			{
				model: 'gpt-4o-mini',
				messages: [
					{ role: 'system', content: 'Answer from the staff data.' },
					{ role: 'user', content: 'Hello there' },
				],
				temperature: 0.3,
				max_completion_tokens: 200,
			},
		]);
		expect(sandbox().state.ai.calls).toHaveLength(1);
	});

	it('declares bound tools, maps the tool call back, and sends the tool result', async () => {
		const result = await runModel('tools', 'Ask Staff_Directory {"limit": 2}');
		expect(result.error).toBeUndefined();
		const [output] = result.json as Array<{ calls: unknown[]; answer: string }>;
		expect(output.calls).toEqual([
			expect.objectContaining({
				id: 'call_sandbox_1',
				name: 'Staff_Directory',
				args: { limit: 2 },
			}),
		]);
		expect(output.answer).toBe(
			'Staff_Directory answered: [{"Name":"Alice Martin","Department":"Sales"}]',
		);
		const [ask, answer] = completions().map(
			(request) =>
				request.body as { tools?: unknown; parallel_tool_calls?: unknown; messages: unknown[] },
		);
		expect(ask.tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'Staff_Directory',
					description: 'Reads the staff entries',
					parameters: { type: 'object', properties: { limit: { type: 'number' } } },
				},
			},
		]);
		expect(ask.parallel_tool_calls).toBeUndefined();
		expect(answer.messages.slice(2)).toEqual([
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_sandbox_1',
						type: 'function',
						function: { name: 'Staff_Directory', arguments: '{"limit":2}' },
					},
				],
			},
			{
				role: 'tool',
				tool_call_id: 'call_sandbox_1',
				content: '[{"Name":"Alice Martin","Department":"Sales"}]',
			},
		]);
	});

	it('streams by one non-streaming call, yielding the whole answer', async () => {
		const result = await runModel('stream', 'Hello stream');
		expect(result.error).toBeUndefined();
		const chunks = (result.json[0] as { chunks: Array<{ text: string }> }).chunks;
		expect(chunks.map((chunk) => chunk.text).join('')).toBe('Echo: Hello stream');
		expect(completions()).toHaveLength(1);
		expect(completions()[0].body).not.toHaveProperty('stream');
	});

	it('streams a tool call as one chunk and asks for one call at a time', async () => {
		const result = await runModel('streamTools', 'Use Staff Directory');
		expect(result.error).toBeUndefined();
		const chunks = (result.json[0] as { chunks: Array<{ toolCallChunks: unknown[] }> }).chunks;
		expect(chunks.flatMap((chunk) => chunk.toolCallChunks)).toEqual([
			expect.objectContaining({ id: 'call_sandbox_1', name: 'Staff_Directory', args: '{}' }),
		]);
		expect((completions()[0].body as Record<string, unknown>).parallel_tool_calls).toBe(false);
	});

	it('sends JSON mode and reasoning effort as the chat-completions options', async () => {
		const result = await runModel('invoke', 'Reply in JSON', {
			model: { __rl: true, mode: 'id', value: 'o4-mini' },
			options: { responseFormat: 'json', reasoningEffort: 'low' },
		});
		expect(result.json[0].answer).toBe('{"echo":"Reply in JSON"}');
		expect(completions()[0].body).toEqual(
			expect.objectContaining({
				model: 'o4-mini',
				response_format: { type: 'json_object' },
				reasoning_effort: 'low',
			}),
		);
	});

	it('says which models to use when the platform refuses the model', async () => {
		const result = await runModel('invoke', 'Hi', {
			model: { __rl: true, mode: 'id', value: 'gpt-4o-2099' },
		});
		expect(result.error?.message).toMatch(/not configured for chat-completions/);
		expect(result.error?.description).toMatch(/Pick a model from the list \(gpt-4o-mini/);
		expect(completions()).toHaveLength(1);
	});

	// The same for either format: OpenAI's chat completions, Gemini's generate-content.
	it.each(MODELS)(
		'says to add credits when the app has none left, without sending again (%s)',
		async (model) => {
			sandbox().state.ai.credits = { 11: 0 };
			const result = await runModel('invoke', 'Hi', onModel(model));
			expect(result.error?.description).toMatch(/AI credits are used up/);
			expect(completions()).toHaveLength(1);
		},
	);

	it.each(MODELS)(
		'never re-sends a call that failed after reaching the platform (%s)',
		async (model) => {
			sandbox().injectFault({ mode: 'status-after', status: 500, path: 'ai/completions' });
			const result = await runModel('invoke', 'Hi', onModel(model));
			expect(result.error?.description).toMatch(/never re-sent automatically/);
			expect(completions()).toHaveLength(1);
			expect(sandbox().state.ai.calls).toHaveLength(1);
		},
	);

	it.each(MODELS)(
		'waits out a 429 of the app AI limit and sends once more (a 429 is refused before any work) (%s)',
		async (model) => {
			// The platform's 429 to the model's first request, whenever the run gets to it on a busy
			// machine (a date already past is waited out too, at once).
			faultNthRequest(sandbox(), { method: 'POST', path: COMPLETIONS }, 1, {
				mode: 'status-before',
				status: 429,
				body: {
					message: 'Too many requests, please slow down.',
					nextValidRequestDate: new Date(Date.now() + 300).toISOString(),
				},
			});
			const result = await runModel('invoke', 'Second', onModel(model));
			expect(result.error).toBeUndefined();
			expect(completions().map((request) => request.status)).toEqual([429, 200]);
			expect(sandbox().state.ai.calls).toHaveLength(1);
		},
	);

	it('keeps the token out of errors', async () => {
		const result = await runModel('invoke', 'Hi', { app: { __rl: true, mode: 'id', value: '10' } });
		expect(result.error?.httpCode).toBe('404');
		expect(JSON.stringify(result.error)).not.toContain(
			sandboxCredential(sandbox()).flipletApi.accessToken,
		);
	});
});
