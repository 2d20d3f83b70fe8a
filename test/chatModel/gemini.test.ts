/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { INodeParameters } from 'n8n-workflow';

import { COMPLETIONS } from '../ai/fixtures';
import { apiRequests, useSandbox } from '../harness';
import { IMAGE_URL, TOOL_RESULT } from './modelUser.node';
import { CHAT_MODEL_NODE, HELLO_THERE_ANSWER, modelRunner, tracedUsage } from './runModel';
import { PARSED_TICKET, TICKET_GEMINI_SCHEMA, ticketParser } from './ticketParser';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
const completions = () => apiRequests(sandbox(), COMPLETIONS);
const sent = (index = 0) => completions()[index].body as Record<string, any>;

const gemini = (value = 'gemini-2.5-flash', options: INodeParameters = {}): INodeParameters => ({
	model: { __rl: true, mode: 'list', value },
	options,
});
const SYSTEM = { parts: [{ text: 'Answer from the staff data.' }] };
const SIGNATURE = Buffer.from('sandbox-thought:Staff_Directory').toString('base64');

/** A Gemini answer of these parts, as the platform passes Gemini's answer on. */
const answer = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
	mode: 'status-before' as const,
	status: 200,
	path: 'ai/completions',
	body: {
		candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', ...extra }],
		usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 },
	},
});

describe('Fliplet Chat Model with Gemini (through n8n-core)', () => {
	it("sends the generate-content format as the platform's JS API does, with only the settings Gemini takes, and reads the answer and usage", async () => {
		const result = await runModel(
			'invoke',
			'Hello there',
			gemini('gemini-2.5-flash', {
				temperature: 0.3,
				maxTokens: 200,
				topP: 0.9,
				topK: 20,
				stop: ['END'],
				// Options of OpenAI's models, kept from an earlier model choice: not Gemini's.
				presencePenalty: 0.5,
				frequencyPenalty: 0.1,
				seed: 7,
				reasoningEffort: 'low',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([HELLO_THERE_ANSWER]);
		expect(completions().map((request) => request.body)).toEqual([
			{
				model: 'gemini-2.5-flash',
				aiProvider: 'gemini',
				systemInstruction: SYSTEM,
				contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
				generationConfig: {
					temperature: 0.3,
					maxOutputTokens: 200,
					topP: 0.9,
					topK: 20,
					stopSequences: ['END'],
				},
			},
		]);
		expect(sandbox().state.ai.calls).toEqual([
			expect.objectContaining({ format: 'generate-content', model: 'gemini-2.5-flash' }),
		]);
	});

	it("runs an agent's tool round trip: declarations from n8n's tool schemas, a call with an id, the function response named after it", async () => {
		// As n8n's agent runs it: only the call's id, name and arguments kept between the steps.
		const result = await runModel('zodTools', 'Ask Staff_Directory {"limit": 2}', gemini());
		expect(result.error).toBeUndefined();
		const [output] = result.json as Array<{ calls: Array<{ id: string }>; answer: string }>;
		expect(output.calls).toEqual([
			expect.objectContaining({
				// The id carries the call's thought signature, which Gemini wants back with it.
				id: `${output.calls[0]?.id.slice(0, 29)}~thought~${SIGNATURE}`,
				name: 'Staff_Directory',
				args: { limit: 2 },
			}),
		]);
		expect(output.calls[0].id).toMatch(/^call_\w{24}~/);
		expect(output.answer).toBe(`Staff_Directory answered: ${TOOL_RESULT}`);
		const [ask, answerTurn] = [sent(0), sent(1)];
		// No additionalProperties, $schema or type lists: Gemini refuses them; no empty parameters.
		expect(ask.tools).toEqual([
			{
				functionDeclarations: [
					{
						name: 'Staff_Directory',
						description: 'Reads the staff entries',
						parameters: {
							type: 'object',
							properties: {
								limit: { type: 'number', description: 'How many entries' },
								department: { type: 'string', nullable: true },
							},
							required: ['department'],
						},
					},
					{ name: 'Current_Time', description: 'Tells the time' },
				],
			},
		]);
		expect(ask).not.toHaveProperty('parallel_tool_calls');
		expect(answerTurn.contents.slice(1)).toEqual([
			{
				role: 'model',
				parts: [
					{
						functionCall: { name: 'Staff_Directory', args: { limit: 2 } },
						thoughtSignature: SIGNATURE,
					},
				],
			},
			{
				role: 'user',
				parts: [
					{ functionResponse: { name: 'Staff_Directory', response: { output: TOOL_RESULT } } },
				],
			},
		]);
	});

	it('streams the answer and a tool call by one call, and shows the tokens counted in the run data', async () => {
		const streamed = await runModel('stream', 'Hello stream', gemini());
		expect(streamed.error).toBeUndefined();
		const chunks = (streamed.json[0] as { chunks: Array<{ text: string }> }).chunks;
		expect(chunks.map((chunk) => chunk.text).join('')).toBe('Echo: Hello stream');
		expect(tracedUsage(streamed)).toEqual([
			{ tokenUsage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 }, estimated: false },
		]);
		const invoked = await runModel('invoke', 'Hello there', gemini());
		expect(tracedUsage(invoked)).toEqual([
			{ tokenUsage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 }, estimated: false },
		]);
		const tools = await runModel('streamTools', 'Use Staff Directory', gemini());
		expect((tools.json[0] as { calls: unknown[] }).calls).toEqual([
			expect.objectContaining({ id: expect.stringMatching(/^call_/), name: 'Staff_Directory' }),
		]);
		expect(completions()).toHaveLength(3);
		expect(completions().every((request) => !('stream' in (request.body as object)))).toBe(true);
	});

	it('streams parallel calls apart: each has its own id', async () => {
		sandbox().injectFault(
			answer([
				{ functionCall: { name: 'Staff_Directory', args: { limit: 1 } } },
				{ functionCall: { name: 'Staff_Directory', args: { limit: 2 } } },
			]),
		);
		const result = await runModel('streamTools', 'Use Staff Directory twice', gemini());
		expect(result.error).toBeUndefined();
		const calls = (result.json[0] as { calls: Array<{ id: string; args: unknown }> }).calls;
		expect(calls.map((call) => call.args)).toEqual([{ limit: 1 }, { limit: 2 }]);
		expect(new Set(calls.map((call) => call.id)).size).toBe(2);
	});

	it("sends an output parser's schema as Gemini's responseSchema, and the parser reads the answer", async () => {
		const { parser, prompt } = ticketParser();
		const result = await runModel('invoke', prompt, gemini());
		expect(result.error).toBeUndefined();
		expect(sent().generationConfig).toEqual({
			responseMimeType: 'application/json',
			responseSchema: TICKET_GEMINI_SCHEMA,
		});
		expect(await parser.parse(result.json[0].answer)).toEqual(PARSED_TICKET);
	});

	it('sends the JSON Schema option as responseSchema and JSON mode as responseMimeType', async () => {
		const schema = {
			type: 'object',
			properties: { title: { type: 'string' } },
			required: ['title'],
			additionalProperties: false,
		};
		const withSchema = await runModel(
			'invoke',
			'Name this ticket',
			gemini('gemini-2.5-flash', {
				responseFormat: 'jsonSchema',
				jsonSchema: JSON.stringify(schema),
			}),
		);
		expect(JSON.parse(withSchema.json[0].answer as string)).toEqual({
			title: 'Echo: Name this ticket',
		});
		const json = await runModel(
			'invoke',
			'Reply in JSON',
			gemini('gemini-2.5-pro', { responseFormat: 'json' }),
		);
		expect(json.json[0].answer).toBe('{"echo":"Reply in JSON"}');
		expect(
			completions().map((request) => (request.body as Record<string, any>).generationConfig),
		).toEqual([
			{
				responseMimeType: 'application/json',
				responseSchema: {
					type: 'object',
					properties: { title: { type: 'string' } },
					required: ['title'],
				},
			},
			{ responseMimeType: 'application/json' },
		]);
	});

	it('refuses a JSON response format beside tools before any call: Gemini takes no such pair', async () => {
		const result = await runModel(
			'tools',
			'Ask Staff_Directory',
			gemini('gemini-2.5-flash', { responseFormat: 'json' }),
		);
		expect(result.error?.message).toMatch(
			/^Gemini takes no JSON response format together with tools/,
		);
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect(completions()).toHaveLength(0);
	});

	it('sends the images an agent passes as inlineData', async () => {
		const result = await runModel('image', 'What is in this picture?', gemini());
		expect(result.error).toBeUndefined();
		expect(sent().contents).toEqual([
			{
				role: 'user',
				parts: [
					{ text: 'What is in this picture?' },
					{ inlineData: { mimeType: 'image/png', data: IMAGE_URL.split(',')[1] } },
				],
			},
		]);
	});

	it.each([
		['text that is not JSON', 'limit: 2'],
		['a JSON array', [2]],
	])('refuses a function call whose arguments are %s, as the OpenAI path does', async (_, args) => {
		sandbox().injectFault(answer([{ functionCall: { name: 'Staff_Directory', args } }]));
		const result = await runModel('tools', 'Ask Staff_Directory', gemini());
		expect(result.error?.message).toBe(
			'The model called the tool "Staff_Directory" with arguments that are not a JSON object',
		);
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect(completions()).toHaveLength(1);
	});

	it('refuses a call Gemini could not write (MALFORMED_FUNCTION_CALL), naming the tool', async () => {
		sandbox().injectFault(
			answer([], {
				finishReason: 'MALFORMED_FUNCTION_CALL',
				finishMessage: "Malformed function call: print(default_api.Staff_Directory(limit='two'))",
			}),
		);
		const result = await runModel('tools', 'Ask Staff_Directory', gemini());
		expect(result.error?.message).toBe(
			'The model called the tool "Staff_Directory" with arguments that are not a JSON object',
		);
		expect(result.error?.description).toContain("Staff_Directory(limit='two')");
	});

	it('says so when Gemini blocked the prompt, as an error of the sub-node', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 200,
			path: 'ai/completions',
			body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } },
		});
		const result = await runModel('invoke', 'Hi', gemini());
		expect(result.error?.message).toBe('Gemini blocked the prompt (SAFETY)');
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect((result.error as { node?: { name: string } }).node?.name).toBe(CHAT_MODEL_NODE);
	});

	it("explains a refused model in Gemini's terms", async () => {
		const result = await runModel('invoke', 'Hi', gemini('gemini-9-ultra'));
		expect(result.error?.message).toMatch(/not configured for generate-content/);
		expect(result.error?.description).toMatch(/in Gemini's generate-content format/);
		expect(completions()).toHaveLength(1);
	});

	describe("Gemini's image model (no system instruction, tools or JSON output)", () => {
		const image = (options: INodeParameters = {}) => gemini('gemini-2.5-flash-image', options);

		it('reads the system message at the start of the user turn', async () => {
			const result = await runModel('invoke', 'Draw a cat', image());
			expect(result.error).toBeUndefined();
			expect(sent()).toEqual({
				model: 'gemini-2.5-flash-image',
				aiProvider: 'gemini',
				contents: [{ role: 'user', parts: [...SYSTEM.parts, { text: 'Draw a cat' }] }],
			});
		});

		it('refuses tools and a JSON response format before any call', async () => {
			const tools = await runModel('tools', 'Ask Staff_Directory', image());
			expect(tools.error?.message).toBe(
				'The model "gemini-2.5-flash-image" takes no tools (function calling): pick a Gemini text model, such as gemini-2.5-flash, for an agent with tools.',
			);
			const json = await runModel('invoke', 'Hi', image({ responseFormat: 'json' }));
			expect(json.error?.message).toBe(
				'The model "gemini-2.5-flash-image" takes no JSON response format',
			);
			expect(completions()).toHaveLength(0);
		});
	});
});
