/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { INodeParameters } from 'n8n-workflow';

import { searchChatModels } from '../../nodes/FlipletChatModel/models';
import { COMPLETIONS } from '../ai/fixtures';
import { apiRequests, faultNthRequest, useSandbox, type SandboxFault } from '../harness';
import { STAFF_TOOL } from './modelUser.node';
import { CHAT_MODEL_NODE, modelRunner } from './runModel';
import { PARSED_TICKET, TICKET_GEMINI_SCHEMA, TICKET_SCHEMA, ticketParser } from './ticketParser';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
const completions = () => apiRequests(sandbox(), COMPLETIONS);
const bodies = () => completions().map((request) => request.body as Record<string, any>);

const listModel = (value: string): INodeParameters => ({
	model: { __rl: true, mode: 'list', value },
});
const idModel = (value: string, options: INodeParameters = {}): INodeParameters => ({
	model: { __rl: true, mode: 'id', value },
	options,
});

/** What the Chat Model's run data says, call by call, about how it asked for the schema. */
function structuredOutputNotes(result: Awaited<ReturnType<typeof runModel>>) {
	return (result.run.data.resultData.runData[CHAT_MODEL_NODE] ?? []).map((run) => {
		const json = run.data?.ai_languageModel?.[0]?.[0]?.json as Record<string, any> | undefined;
		return json?.response?.generations?.[0]?.[0]?.generationInfo?.structuredOutput;
	});
}

/** A JSON Schema option that strict mode takes. */
const ANSWER_SCHEMA = {
	type: 'object',
	properties: { answer: { type: 'string' } },
	required: ['answer'],
	additionalProperties: false,
};

const ROUTE = {
	jsonSchema: 'json_schema response format',
	functionCalling: "function calling (the schema as a forced tool's parameters)",
	gemini: "Gemini's responseSchema",
};

/** The request of each route, for the ticket parser's schema. */
const SENT = {
	jsonSchema: (body: Record<string, any>) => {
		expect(body.response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'structured_output', schema: TICKET_SCHEMA, strict: true },
		});
		expect(body).not.toHaveProperty('tools');
		expect(body).not.toHaveProperty('tool_choice');
	},
	functionCalling: (body: Record<string, any>) => {
		expect(body).not.toHaveProperty('response_format');
		expect(body.tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'structured_output',
					description: expect.any(String),
					parameters: TICKET_SCHEMA,
					strict: true,
				},
			},
		]);
		expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'structured_output' } });
	},
	gemini: (body: Record<string, any>) => {
		expect(body).not.toHaveProperty('response_format');
		expect(body.generationConfig).toEqual({
			responseMimeType: 'application/json',
			responseSchema: TICKET_GEMINI_SCHEMA,
		});
	},
};

describe('Fliplet Chat Model: structured output on every model (through n8n-core)', () => {
	// Written out, not read from the node: which route each listed model must get.
	const EXPECTED: Array<[string, keyof typeof SENT]> = [
		['gpt-4o-mini', 'jsonSchema'],
		['gpt-4o', 'jsonSchema'],
		['gpt-4.1', 'jsonSchema'],
		['gpt-5', 'jsonSchema'],
		['o3-mini', 'jsonSchema'],
		['gpt-4', 'functionCalling'],
		['gpt-3.5-turbo', 'functionCalling'],
		['gemini-2.5-flash', 'gemini'],
	];

	it('covers every model of the list', async () => {
		const listed = (await searchChatModels()).results.map((result) => result.value);
		expect(listed.sort()).toEqual(EXPECTED.map(([model]) => model).sort());
	});

	it.each(EXPECTED)(
		'gives an output parser a valid answer from %s, asking it by %s in one request',
		async (model, route) => {
			const { parser, prompt } = ticketParser();
			const result = await runModel('invoke', prompt, listModel(model));
			expect(result.error).toBeUndefined();
			expect(await parser.parse(result.json[0].answer)).toEqual(PARSED_TICKET);
			expect(bodies()).toHaveLength(1);
			SENT[route](bodies()[0]);
			expect(structuredOutputNotes(result)).toEqual([ROUTE[route]]);
		},
	);

	it('streams the forced call of a model without json_schema as the answer text', async () => {
		const { parser, prompt } = ticketParser();
		const result = await runModel('stream', prompt, listModel('gpt-4'));
		expect(result.error).toBeUndefined();
		const chunks = result.json[0].chunks as Array<{ text: string; toolCallChunks: unknown[] }>;
		expect(chunks.every((chunk) => chunk.toolCallChunks.length === 0)).toBe(true);
		const text = chunks.map((chunk) => chunk.text).join('');
		expect(await parser.parse(text)).toEqual(PARSED_TICKET);
		SENT.functionCalling(bodies()[0]);
		expect(structuredOutputNotes(result)).toEqual([ROUTE.functionCalling]);
	});

	it('sends the JSON Schema option to gpt-3.5-turbo as a strict forced function of its name', async () => {
		const schema = ANSWER_SCHEMA;
		const result = await runModel('invoke', 'Name this ticket', {
			...listModel('gpt-3.5-turbo'),
			options: {
				responseFormat: 'jsonSchema',
				jsonSchema: JSON.stringify(schema),
				schemaName: 'ticket',
			},
		});
		expect(result.error).toBeUndefined();
		expect(JSON.parse(result.json[0].answer as string)).toEqual({
			answer: 'Echo: Name this ticket',
		});
		const [body] = bodies();
		expect(body.tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'ticket',
					description: expect.any(String),
					parameters: schema,
					strict: true,
				},
			},
		]);
		expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'ticket' } });
		expect(body).not.toHaveProperty('response_format');
	});

	it("asks with an agent's tools bound in JSON mode where the model takes it, else in the prompt alone, the schema in the prompt", async () => {
		const schema = ANSWER_SCHEMA;
		const options = { responseFormat: 'jsonSchema', jsonSchema: JSON.stringify(schema) };
		const instruction = {
			role: 'system',
			content: expect.stringContaining(`\`\`\`json\n${JSON.stringify(schema)}\n\`\`\``),
		};
		const jsonMode = await runModel('tools', 'Ask Staff_Directory {"limit": 2}', {
			...listModel('gpt-3.5-turbo'),
			options,
		});
		expect(jsonMode.error).toBeUndefined();
		const prompt = await runModel('tools', 'Ask Staff_Directory {"limit": 2}', {
			...listModel('gpt-4'),
			options,
		});
		expect(prompt.error).toBeUndefined();
		const sent = bodies();
		// Each run: the tool call, then the answer from the tool's result.
		expect(sent.map((body) => [body.model, body.response_format ?? null])).toEqual([
			['gpt-3.5-turbo', { type: 'json_object' }],
			['gpt-3.5-turbo', { type: 'json_object' }],
			['gpt-4', null],
			['gpt-4', null],
		]);
		for (const body of sent) {
			expect(body.messages[0]).toEqual(instruction);
			expect(body.tools).toEqual([STAFF_TOOL]);
			expect(body).not.toHaveProperty('tool_choice');
		}
		expect((jsonMode.json[0].calls as unknown[]).length).toBe(1);
		expect(structuredOutputNotes(jsonMode)).toEqual([
			'JSON mode (json_object) with the schema in the prompt',
			'JSON mode (json_object) with the schema in the prompt',
		]);
		expect(structuredOutputNotes(prompt)).toEqual([
			'the schema in the prompt alone',
			'the schema in the prompt alone',
		]);
	});

	it('refuses JSON Object on gpt-4, which takes no JSON mode, before any call', async () => {
		const result = await runModel('invoke', 'Reply in JSON', {
			...listModel('gpt-4'),
			options: { responseFormat: 'json' },
		});
		expect(result.error?.message).toBe('The model "gpt-4" takes no JSON Object response format');
		expect(result.error?.description).toMatch(/Set Response Format to JSON Schema/);
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect(completions()).toHaveLength(0);
	});

	it('keeps JSON mode on gpt-3.5-turbo, which takes it', async () => {
		const result = await runModel('invoke', 'Reply in JSON', {
			...listModel('gpt-3.5-turbo'),
			options: { responseFormat: 'json' },
		});
		expect(result.json[0].answer).toBe('{"echo":"Reply in JSON"}');
		expect(bodies()[0].response_format).toEqual({ type: 'json_object' });
	});
});

describe('Fliplet Chat Model: a model By ID that refuses json_schema (through n8n-core)', () => {
	/** The first gpt-4o snapshot: the node does not know it, the platform refuses json_schema on it. */
	const OLD_GPT_4O = 'gpt-4o-2024-05-13';

	it('tries json_schema, then once more by function calling when the platform refuses the format, and says so in the run data', async () => {
		const { parser, prompt } = ticketParser();
		const result = await runModel('invoke', prompt, idModel(OLD_GPT_4O));
		expect(result.error).toBeUndefined();
		expect(await parser.parse(result.json[0].answer)).toEqual(PARSED_TICKET);
		const [first, second] = bodies();
		expect(bodies()).toHaveLength(2);
		SENT.jsonSchema(first);
		SENT.functionCalling(second);
		expect(second.messages).toEqual(first.messages);
		expect(structuredOutputNotes(result)).toEqual([
			`${ROUTE.functionCalling}, after the platform refused the json_schema format for ${OLD_GPT_4O}`,
		]);
		// The refused request made nothing: one call, one credit.
		expect(sandbox().state.ai.calls).toHaveLength(1);
		expect(sandbox().state.ai.credits[11]).toBe(999);
	});

	it('sends nothing more when the fallback fails too, and says both', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: COMPLETIONS }, 2, {
			mode: 'status-before',
			status: 402,
			body: { message: 'Insufficient AI credits for this app.', type: 'ai.credits' },
		});
		const { prompt } = ticketParser();
		const result = await runModel('invoke', prompt, idModel(OLD_GPT_4O));
		expect(result.error?.message).toMatch(/Insufficient AI credits/);
		expect(result.error?.description).toMatch(
			/^The platform refused the json_schema response format for this model, so the call was sent once more with function calling .*, which failed too\. .*AI credits are used up/,
		);
		expect(completions()).toHaveLength(2);
	});

	const FAILURES: Array<[string, SandboxFault]> = [
		['a 500 before the provider', { mode: 'status-before', status: 500 }],
		['a 500 after the provider answered', { mode: 'status-after', status: 500 }],
		['a dropped connection after the provider answered', { mode: 'drop-after' }],
		['a dropped connection before any answer', { mode: 'drop-before' }],
		[
			'no credits (402)',
			{
				mode: 'status-before',
				status: 402,
				body: { message: 'Insufficient AI credits for this app.', type: 'ai.credits' },
			},
		],
		[
			'a provider failure (a 400 too)',
			{
				mode: 'status-before',
				status: 400,
				body: {
					message: 'The server had an error while processing your request.',
					type: 'ai.provider',
				},
			},
		],
		[
			'a 400 naming the format for another reason',
			{
				mode: 'status-before',
				status: 400,
				body: {
					message:
						"Invalid schema for response_format 'structured_output': In context=(), 'additionalProperties' is required to be supplied and to be false.",
					type: 'ai.provider',
				},
			},
		],
		[
			'a refusal of another parameter',
			{
				mode: 'status-before',
				status: 400,
				body: {
					message: "Unsupported parameter: 'temperature' is not supported with this model.",
					type: 'ai.provider',
				},
			},
		],
	];

	// A model the node sends json_schema with a fallback ready: the listed gpt-4o-mini, whose
	// request reaches the provider, and the old snapshot, whose request the platform would refuse
	// (only faults met before the handler runs apply to it).
	const CASES = FAILURES.flatMap(([name, fault]) => [
		[name, fault, 'gpt-4o-mini'] as const,
		...(fault.mode.endsWith('-before') ? [[name, fault, OLD_GPT_4O] as const] : []),
	]);

	it.each(CASES)('makes no second request after %s (%s)', async (_, fault, model) => {
		faultNthRequest(sandbox(), { method: 'POST', path: COMPLETIONS }, 1, fault);
		const { prompt } = ticketParser();
		const result = await runModel('invoke', prompt, idModel(model));
		expect(result.error).toBeDefined();
		expect(result.error?.description ?? '').not.toMatch(/sent once more/);
		expect(completions()).toHaveLength(1);
		SENT.jsonSchema(bodies()[0]);
	});
});
