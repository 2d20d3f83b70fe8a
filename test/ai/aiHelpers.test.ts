import { audioProblem, MAX_AUDIO_BYTES } from '../../nodes/Fliplet/helpers/aiAudio';
import { chunk, vectorsFrom } from '../../nodes/Fliplet/helpers/aiEmbeddings';
import { buildCompletionBody, extractText, formatOfBody } from '../../nodes/Fliplet/helpers/aiText';

describe('extractText', () => {
	it('chat completions: content string, null content (tool calls) and content parts', () => {
		expect(extractText('chatCompletions', { choices: [{ message: { content: 'hi' } }] })).toBe(
			'hi',
		);
		expect(
			extractText('chatCompletions', {
				choices: [{ message: { content: null, tool_calls: [{}] } }],
			}),
		).toBe('');
		expect(
			extractText('chatCompletions', {
				choices: [
					{
						message: {
							content: [
								{ type: 'text', text: 'a' },
								{ type: 'image_url' },
								{ type: 'text', text: 'b' },
							],
						},
					},
				],
			}),
		).toBe('ab');
		expect(extractText('chatCompletions', { output: [] })).toBeUndefined();
	});

	it('responses: only output_text parts of assistant message items', () => {
		const response = {
			output: [
				{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'no' }] },
				{ type: 'function_call', name: 'x', arguments: '{}' },
				{
					type: 'message',
					role: 'assistant',
					content: [
						{ type: 'output_text', text: 'Hello' },
						{ type: 'refusal', refusal: 'no' },
						{ type: 'output_text', text: ' world' },
					],
				},
				{ type: 'message', role: 'user', content: [{ type: 'output_text', text: 'not mine' }] },
			],
		};
		expect(extractText('responses', response)).toBe('Hello world');
		expect(
			extractText('responses', {
				output: [
					{ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
				],
			}),
		).toBe('');
		expect(extractText('responses', { choices: [] })).toBeUndefined();
	});

	it('generate content: all text parts of the first candidate, none when blocked', () => {
		const response = {
			candidates: [
				{
					content: {
						parts: [
							{ text: 'one ' },
							{ inlineData: { mimeType: 'image/png', data: 'xx' } },
							{ text: 'two' },
						],
					},
				},
				{ content: { parts: [{ text: 'other candidate' }] } },
			],
		};
		expect(extractText('generateContent', response)).toBe('one two');
		expect(
			extractText('generateContent', { candidates: [], promptFeedback: { blockReason: 'SAFETY' } }),
		).toBe('');
		expect(extractText('generateContent', { text: 'x' })).toBeUndefined();
	});
});

describe('buildCompletionBody', () => {
	it('generate content: assistant turns become model turns, system turns join the instruction', () => {
		const body = buildCompletionBody({
			format: 'generateContent',
			model: 'gemini-2.5-flash',
			systemMessage: 'Be brief.',
			messages: [
				{ role: 'system', content: 'Use metric units.' },
				{ role: 'user', content: 'Q1' },
				{ role: 'assistant', content: 'A1' },
				{ role: 'user', content: 'Q2' },
			],
		});
		expect(body).toEqual({
			model: 'gemini-2.5-flash',
			systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use metric units.' }] },
			contents: [
				{ role: 'user', parts: [{ text: 'Q1' }] },
				{ role: 'model', parts: [{ text: 'A1' }] },
				{ role: 'user', parts: [{ text: 'Q2' }] },
			],
		});
	});
});

describe('formatOfBody', () => {
	it('recognises each format and accepts stream: false', () => {
		expect(formatOfBody({ model: 'm', messages: [], stream: false })).toEqual({
			format: 'chatCompletions',
		});
		expect(formatOfBody({ model: 'm', input: 'x', useResponses: true })).toEqual({
			format: 'responses',
		});
		expect(formatOfBody({ model: 'm', contents: [] })).toEqual({ format: 'generateContent' });
	});

	it('refuses useResponses outside the responses format', () => {
		expect(formatOfBody({ model: 'm', contents: [], useResponses: true })).toEqual(
			expect.objectContaining({ problem: expect.stringMatching(/only for the responses format/) }),
		);
	});
});

describe('audioProblem', () => {
	it('is inclusive at 25 MiB', () => {
		expect(audioProblem(MAX_AUDIO_BYTES, 'audio/wav')).toBeUndefined();
		expect(audioProblem(MAX_AUDIO_BYTES + 1, 'audio/wav')?.status).toBe(413);
	});

	it('compares base types case-insensitively and refuses a missing type', () => {
		expect(audioProblem(1, 'Audio/MPEG')).toBeUndefined();
		expect(audioProblem(1, undefined)?.status).toBe(415);
		expect(audioProblem(1, 'audio/flac')?.status).toBe(415);
		expect(audioProblem(1, 'audio/mp3')).toBeUndefined();
	});
});

describe('vectorsFrom', () => {
	it('orders by index and refuses responses that cannot be matched', () => {
		const data = [
			{ index: 1, embedding: [2] },
			{ index: 0, embedding: [1] },
		];
		expect(vectorsFrom({ data }, 2, 'float')).toEqual([[1], [2]]);
		expect(vectorsFrom({ data }, 3, 'float')).toMatch(/2 vectors for 3 inputs/);
		expect(vectorsFrom({ data: [data[0], { index: 1, embedding: [3] }] }, 2, 'float')).toMatch(
			/unexpected index 1/,
		);
		expect(vectorsFrom({ data }, 2, 'base64')).toMatch(/not a base64 string/);
		expect(vectorsFrom({ data: [{ index: 0, embedding: 'AAA=' }] }, 1, 'float')).toMatch(
			/not a list of numbers/,
		);
		expect(vectorsFrom({ embeddings: [] }, 1, 'float')).toMatch(/no "data" list/);
	});

	it('chunks lists', () => {
		expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
	});
});
