/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { COMPLETIONS } from '../ai/fixtures';
import { apiRequests, useSandbox } from '../harness';
import { modelRunner } from './runModel';
import { PARSED_TICKET, TICKET_SCHEMA, ticketParser } from './ticketParser';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
const completions = () => apiRequests(sandbox(), COMPLETIONS);
const sentBody = () => completions()[0].body as Record<string, any>;

const STRICT_SCHEMA = {
	type: 'object',
	properties: {
		title: { type: 'string' },
		tags: { type: 'array', items: { type: 'string', enum: ['urgent', 'later'] } },
	},
	required: ['title', 'tags'],
	additionalProperties: false,
};

describe('Fliplet Chat Model: structured output and the pass-through options', () => {
	it('sends the JSON Schema option as json_schema, strict when the schema allows it, and gets an instance of it', async () => {
		const result = await runModel('invoke', 'Name this ticket', {
			options: {
				responseFormat: 'jsonSchema',
				jsonSchema: JSON.stringify(STRICT_SCHEMA),
				schemaName: 'ticket',
			},
		});
		expect(result.error).toBeUndefined();
		expect(sentBody().response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'ticket', schema: STRICT_SCHEMA, strict: true },
		});
		expect(JSON.parse(result.json[0].answer as string)).toEqual({
			title: 'Echo: Name this ticket',
			tags: ['urgent'],
		});
	});

	it('sends a schema that strict mode does not take as a non-strict json_schema', async () => {
		const open = { type: 'object', properties: { title: { type: 'string' } } };
		const result = await runModel('invoke', 'Name it', {
			options: { responseFormat: 'jsonSchema', jsonSchema: JSON.stringify(open) },
		});
		expect(result.error).toBeUndefined();
		expect(sentBody().response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'response', schema: open, strict: false },
		});
	});

	it("sends an output parser's schema as a strict json_schema, and the parser reads the answer", async () => {
		const { parser, prompt } = ticketParser();
		const result = await runModel('invoke', prompt, { options: { responseFormat: 'text' } });
		expect(result.error).toBeUndefined();
		const format = sentBody().response_format;
		expect(format).toEqual({
			type: 'json_schema',
			json_schema: {
				name: 'structured_output',
				strict: true,
				schema: TICKET_SCHEMA,
			},
		});
		expect(await parser.parse(result.json[0].answer)).toEqual(PARSED_TICKET);
	});

	it('keeps JSON mode when no schema is given', async () => {
		const result = await runModel('invoke', 'Reply in JSON', {
			options: { responseFormat: 'json' },
		});
		expect(result.json[0].answer).toBe('{"echo":"Reply in JSON"}');
		expect(sentBody().response_format).toEqual({ type: 'json_object' });
	});

	it('refuses a JSON Schema option that is not a JSON object, before any call', async () => {
		const result = await runModel('invoke', 'Hi', {
			options: { responseFormat: 'jsonSchema', jsonSchema: '[1, 2]' },
		});
		expect(result.error?.message).toBe('The JSON Schema option is not a JSON object');
		expect(result.error).toHaveProperty('functionality', 'configuration-node');
		expect(completions()).toHaveLength(0);
	});

	it('sends Top P, the penalties, the seed and the stop sequences, and the answer stops at one', async () => {
		const result = await runModel('invoke', 'one two STOP three', {
			options: {
				topP: 0.4,
				presencePenalty: 0.5,
				frequencyPenalty: -0.5,
				seed: 42,
				stop: ['STOP', 'END'],
			},
		});
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual(
			expect.objectContaining({
				top_p: 0.4,
				presence_penalty: 0.5,
				frequency_penalty: -0.5,
				seed: 42,
				stop: ['STOP', 'END'],
			}),
		);
		expect(result.json[0].answer).toBe('Echo: one two ');
	});

	it('refuses more than 4 stop sequences before any call', async () => {
		const result = await runModel('invoke', 'Hi', {
			options: { stop: ['a', 'b', 'c', 'd', 'e'] },
		});
		expect(result.error?.message).toBe('5 stop sequences were given; the model takes at most 4');
		expect(completions()).toHaveLength(0);
	});
});
