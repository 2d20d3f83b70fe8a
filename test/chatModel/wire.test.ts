import type { GenerateResult } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import {
	asStreamChunks,
	fromWireAnswer,
	toWireMessages,
	toWireTools,
	UnsupportedInput,
} from '../../nodes/FlipletChatModel/wire';

/** An answer the mapping reads as a result (not an invalid tool call). */
const readAnswer = (response: IDataObject) => fromWireAnswer(response) as GenerateResult;

describe('chat-completions mapping (pure)', () => {
	it('sends images as image_url parts and refuses other files', () => {
		expect(
			toWireMessages([
				{
					role: 'user',
					content: [
						{ type: 'text', text: 'What is this?' },
						{ type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2]) },
					],
				},
			]),
		).toEqual([
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'What is this?' },
					{ type: 'image_url', image_url: { url: 'data:image/png;base64,AQI=' } },
				],
			},
		]);
		expect(() =>
			toWireMessages([
				{ role: 'user', content: [{ type: 'file', mediaType: 'application/pdf', data: 'x' }] },
			]),
		).toThrow(UnsupportedInput);
	});

	it('sends one tool message per result, with non-text results as JSON', () => {
		expect(
			toWireMessages([
				{
					role: 'tool',
					content: [
						{ type: 'tool-result', toolCallId: 'a', result: 'plain' },
						{ type: 'tool-result', toolCallId: 'b', result: { rows: 2 } },
					],
				},
			]),
		).toEqual([
			{ role: 'tool', tool_call_id: 'a', content: 'plain' },
			{ role: 'tool', tool_call_id: 'b', content: '{"rows":2}' },
		]);
	});

	it("refuses a provider's built-in tool", () => {
		expect(() => toWireTools([{ type: 'provider', name: 'web_search' }], () => ({}))).toThrow(
			/built-in tool/,
		);
	});

	it('keeps a refusal as the answer text and reads cached and reasoning tokens', () => {
		const result = readAnswer({
			id: 'x',
			choices: [
				{
					message: { role: 'assistant', content: null, refusal: 'I cannot' },
					finish_reason: 'stop',
				},
			],
			usage: {
				prompt_tokens: 5,
				completion_tokens: 7,
				total_tokens: 12,
				prompt_tokens_details: { cached_tokens: 2 },
				completion_tokens_details: { reasoning_tokens: 4 },
			},
		});
		expect(result?.message.content).toEqual([{ type: 'text', text: 'I cannot' }]);
		expect(result?.usage).toEqual({
			promptTokens: 5,
			completionTokens: 7,
			totalTokens: 12,
			inputTokenDetails: { cacheRead: 2 },
			outputTokenDetails: { reasoning: 4 },
		});
		expect(result?.finishReason).toBe('stop');
	});

	it('gives undefined for an answer that is not chat-completions', () => {
		expect(fromWireAnswer({ candidates: [] })).toBeUndefined();
		expect(fromWireAnswer({ choices: [{ message: { content: 5 } }] })).toBeUndefined();
	});

	it('streams a whole answer: text, tool calls, then the finish with usage', () => {
		const result = readAnswer({
			choices: [
				{
					message: {
						content: 'Looking',
						tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
					},
					finish_reason: 'tool_calls',
				},
			],
		});
		expect([...asStreamChunks(result)]).toEqual([
			{ type: 'text-delta', delta: 'Looking' },
			{ type: 'tool-call-delta', id: 't', name: 'f', argumentsDelta: '{}' },
			{ type: 'finish', finishReason: 'tool-calls', usage: undefined },
		]);
	});
});
