import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { forcedCallAsText } from '../../nodes/FlipletChatModel/chatCompletions';
import { refusedResponseFormat } from '../../nodes/FlipletChatModel/errors';
import {
	outputAbilities,
	outputPlan,
	type OutputPlan,
} from '../../nodes/FlipletChatModel/outputRoutes';
import { stubNode } from '../harness/stubNode';

/** A 400 of the platform, as the transport makes it from the answer's body. */
function refusal(body: unknown, httpCode = '400') {
	return new NodeApiError(stubNode(), { body } as never, {
		httpCode,
		message: 'The API refused the request',
	});
}

const JSON_SCHEMA_REFUSAL =
	"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs";

describe('structured output routes (pure)', () => {
	it.each<[string, OutputPlan]>([
		// OpenAI documents json_schema on these.
		['gpt-4o-mini', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-4o-mini-2024-07-18', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-4o', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-4o-2024-08-06', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-4.1', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-4.1-nano', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-5', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['gpt-5.5', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['o1', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['o3-mini', { first: 'jsonSchema', fallback: 'functionCalling' }],
		// LangChain's models without it: function calling straight away.
		['gpt-4', { first: 'functionCalling' }],
		['gpt-4-0613', { first: 'functionCalling' }],
		['gpt-4-0125-preview', { first: 'functionCalling' }],
		['gpt-4-turbo', { first: 'functionCalling' }],
		['gpt-3.5-turbo', { first: 'functionCalling' }],
		['GPT-3.5-Turbo ', { first: 'functionCalling' }],
		// No function calling and no response format: the prompt alone.
		['o1-mini', { first: 'prompt' }],
		['o1-preview-2024-09-12', { first: 'prompt' }],
		// Not known: tried with json_schema, function calling if the platform refuses it.
		['gpt-4o-2024-05-13', { first: 'jsonSchema', fallback: 'functionCalling' }],
		['a-model-of-tomorrow', { first: 'jsonSchema', fallback: 'functionCalling' }],
	])('plans %s without tools as %j', (model, plan) => {
		expect(outputPlan(model, false)).toEqual(plan);
	});

	it.each<[string, OutputPlan]>([
		['gpt-4o-mini', { first: 'jsonSchema', fallback: 'jsonMode' }],
		['gpt-3.5-turbo', { first: 'jsonMode' }],
		['gpt-4-0125-preview', { first: 'jsonMode' }],
		['gpt-4', { first: 'prompt' }],
		['o1-mini', { first: 'prompt' }],
		['gpt-4o-2024-05-13', { first: 'jsonSchema', fallback: 'prompt' }],
	])(
		"plans %s with an agent's tools bound as %j (a forced call would keep it from them)",
		(model, plan) => {
			expect(outputPlan(model, true)).toEqual(plan);
		},
	);

	it('knows which models refuse JSON mode, and leaves the unknown ones unknown', () => {
		expect(outputAbilities('gpt-4').jsonMode).toBe(false);
		expect(outputAbilities('gpt-4-32k').jsonMode).toBe(false);
		expect(outputAbilities('o1-preview').jsonMode).toBe(false);
		expect(outputAbilities('gpt-3.5-turbo-1106').jsonMode).toBe(true);
		expect(outputAbilities('gpt-4o').jsonMode).toBe(true);
		expect(outputAbilities('gpt-4-vision-preview').jsonMode).toBeUndefined();
		expect(outputAbilities('gpt-4o-2024-05-13').jsonMode).toBeUndefined();
	});

	it.each([
		['OpenAI', { message: JSON_SCHEMA_REFUSAL, type: 'ai.provider' }],
		[
			'an OpenAI-compatible server',
			{
				message:
					'The parameter `response_format.type` specified in the request are not valid: invalid value: `json_schema`, supported values are: `json_object` and `text`.',
			},
		],
		[
			'a provider error in the payload',
			{ message: 'Provider error', payload: { error: { message: JSON_SCHEMA_REFUSAL } } },
		],
	])("reads %s's refusal of json_schema as a refusal of the format", (_, body) => {
		expect(refusedResponseFormat(refusal(body), 'json_schema')).toBe(true);
		expect(refusedResponseFormat(refusal(body), 'json_object')).toBe(false);
	});

	it.each([
		[
			'an invalid schema',
			"Invalid schema for response_format 'structured_output': In context=(), 'additionalProperties' is required to be supplied and to be false.",
		],
		[
			'a bad schema name',
			"Invalid 'response_format.json_schema.name': string does not match pattern.",
		],
		[
			'another refused parameter',
			"Unsupported parameter: 'temperature' is not supported with this model.",
		],
		[
			'a provider failure (a 400 too)',
			'The server had an error while processing your request (json_schema).',
		],
		['an unknown model', 'The model "gpt-9" is not configured for chat-completions.'],
	])('does not read %s as a refusal of the format', (_, message) => {
		expect(refusedResponseFormat(refusal({ message }), 'json_schema')).toBe(false);
	});

	it('reads a refusal only from a 400 of the API', () => {
		expect(
			refusedResponseFormat(refusal({ message: JSON_SCHEMA_REFUSAL }, '500'), 'json_schema'),
		).toBe(false);
		expect(
			refusedResponseFormat(refusal({ message: JSON_SCHEMA_REFUSAL }, '429'), 'json_schema'),
		).toBe(false);
		expect(
			refusedResponseFormat(new NodeOperationError(stubNode(), JSON_SCHEMA_REFUSAL), 'json_schema'),
		).toBe(false);
	});

	it("reads the forced function's call as the answer's text, and leaves other calls", () => {
		const call = (name: string, args: string) => ({
			id: `call_${name}`,
			type: 'function',
			function: { name, arguments: args },
		});
		const answerWith = (content: string | null, calls: unknown[], finish = 'stop') => ({
			id: 'chatcmpl-1',
			choices: [
				{
					index: 0,
					finish_reason: finish,
					message: { role: 'assistant', content, tool_calls: calls },
				},
			],
		});
		const answer = answerWith(null, [
			call('structured_output', '{"title":"A"}'),
			call('Other', '{}'),
		]);
		expect(forcedCallAsText(answer, 'structured_output')).toEqual(
			answerWith('{"title":"A"}', [call('Other', '{}')]),
		);
		// A model that reports the forced call as "tool_calls" still gives a finished answer.
		const reported = answerWith(null, [call('structured_output', '{}')], 'tool_calls');
		expect(forcedCallAsText(reported, 'structured_output').choices).toEqual([
			{
				index: 0,
				finish_reason: 'stop',
				message: { role: 'assistant', content: '{}', tool_calls: undefined },
			},
		]);
		// An answer without the call (text, or no choice) is read as it is.
		expect(forcedCallAsText(answer, 'missing')).toBe(answer);
		expect(forcedCallAsText({ choices: [] }, 'structured_output')).toEqual({ choices: [] });
	});
});
