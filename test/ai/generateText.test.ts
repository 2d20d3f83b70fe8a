import type { INodeProperties } from 'n8n-workflow';

import { description as generateTextFields } from '../../nodes/Fliplet/actions/ai/generateText.operation';
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { COMPLETIONS, DRAFT_APP, PUBLISHED_APP } from './fixtures';
import { runAi } from './runAi';

const sandbox = useSandbox();

function generateText(parameters: Record<string, unknown>, token?: string) {
	return runAi(sandbox(), 'generateText', parameters, { token });
}

describe('AI → Generate Text', () => {
	it('suggests only models a vendor file names (no gemini-2.5-pro), and still takes any id', () => {
		const models = generateTextFields.filter((field: INodeProperties) => field.name === 'model');
		expect(models.map((field) => [field.type, field.default, field.description])).toEqual([
			[
				'string',
				'gpt-4o-mini',
				"The text model, as configured for the app's AI. Common values: gpt-4o-mini, gpt-4o, gpt-4.1, gpt-5.",
			],
			[
				'string',
				'gemini-2.5-flash',
				"The Gemini text model, as configured for the app's AI. Common values: gemini-2.5-flash.",
			],
		]);
	});

	it('builds a chat-completions body and reads choices[0].message.content', async () => {
		const result = await generateText({
			model: 'gpt-4o-mini',
			systemMessage: 'Be brief.',
			prompt: 'Hello there',
			options: { temperature: 0.2, maxTokens: 50 },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), COMPLETIONS);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/apps/11/ai/completions');
		expect(request.headers['accept']).toBe('application/json');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.body).toEqual({
			model: 'gpt-4o-mini',
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Hello there' },
			],
			temperature: 0.2,
			max_completion_tokens: 50,
		});
		expect(result.json).toEqual([
			{
				text: 'Echo: Hello there',
				model: 'gpt-4o-mini',
				usage: expect.objectContaining({ total_tokens: 5 }),
			},
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('sends a list of messages and JSON mode, and parses the JSON answer under data', async () => {
		const result = await generateText({
			messageSource: 'messages',
			messages: {
				message: [
					{ role: 'user', content: 'First question' },
					{ role: 'assistant', content: 'First answer' },
					{ role: 'user', content: 'Follow-up' },
				],
			},
			options: { jsonOutput: true, includeRaw: true },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), COMPLETIONS);
		expect(request.body).toEqual({
			model: 'gpt-4o-mini',
			messages: [
				{ role: 'user', content: 'First question' },
				{ role: 'assistant', content: 'First answer' },
				{ role: 'user', content: 'Follow-up' },
			],
			response_format: { type: 'json_object' },
		});
		expect(result.json[0].text).toBe('{"echo":"Follow-up"}');
		expect(result.json[0].data).toEqual({ echo: 'Follow-up' });
		expect(result.json[0].raw).toEqual(expect.objectContaining({ object: 'chat.completion' }));
	});

	it('responses format: sends input + useResponses and keeps only output_text of assistant messages', async () => {
		const result = await generateText({
			format: 'responses',
			model: 'gpt-4.1-mini',
			systemMessage: 'Answer in French.',
			prompt: 'Good morning',
			options: { maxTokens: 64 },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), COMPLETIONS);
		expect(request.body).toEqual({
			model: 'gpt-4.1-mini',
			useResponses: true,
			instructions: 'Answer in French.',
			input: [{ role: 'user', content: 'Good morning' }],
			max_output_tokens: 64,
		});
		expect(request.body).not.toHaveProperty('messages');
		// The sandbox splits the text over two output_text parts after a reasoning item.
		expect(result.json[0].text).toBe('Echo: Good morning');
		expect(result.json[0].model).toBe('gpt-4.1-mini');
	});

	it('generate-content format: sends contents with aiProvider gemini and joins candidates[0].content.parts[].text', async () => {
		const result = await generateText({
			format: 'generateContent',
			model: 'gemini-2.5-flash',
			systemMessage: 'Be kind.',
			prompt: 'How are you?',
			options: { temperature: 0.5, jsonOutput: true },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), COMPLETIONS);
		// What the platform's JS API sends for Gemini: "set 'aiProvider' to 'gemini'".
		expect(request.body).toEqual({
			model: 'gemini-2.5-flash',
			aiProvider: 'gemini',
			systemInstruction: { parts: [{ text: 'Be kind.' }] },
			contents: [{ role: 'user', parts: [{ text: 'How are you?' }] }],
			generationConfig: { temperature: 0.5, responseMimeType: 'application/json' },
		});
		expect(request.body).not.toHaveProperty('useResponses');
		expect(result.json[0]).toEqual(
			expect.objectContaining({
				text: '{"echo":"How are you?"}',
				data: { echo: 'How are you?' },
				model: 'gemini-2.5-flash',
			}),
		);
	});

	it('JSON body is sent as written in each format (a Gemini body gains aiProvider)', async () => {
		const bodies = [
			{
				model: 'gpt-4o',
				messages: [{ role: 'user', content: 'raw chat' }],
				reasoning_effort: 'low',
			},
			{ model: 'gpt-5', input: 'raw responses', useResponses: true, reasoning: { effort: 'low' } },
			{ model: 'gemini-2.5-pro', contents: [{ role: 'user', parts: [{ text: 'raw gemini' }] }] },
			{
				model: 'gemini-2.5-flash',
				aiProvider: 'gemini',
				contents: [{ role: 'user', parts: [{ text: 'named gemini' }] }],
			},
			// Fliplet's docs show useResponses: false with messages as valid ("not the responses format").
			{
				model: 'gpt-4o',
				messages: [{ role: 'user', content: 'not responses' }],
				useResponses: false,
			},
			{ model: 'o3-mini', aiProvider: 'openai', messages: [{ role: 'user', content: 'openai' }] },
		];
		const texts: unknown[] = [];
		for (const body of bodies) {
			sandbox().requests.length = 0;
			const result = await generateText({ inputMode: 'json', jsonBody: JSON.stringify(body) });
			expect(result.error).toBeUndefined();
			const sent = 'contents' in body ? { ...body, aiProvider: 'gemini' } : body;
			expect(apiRequests(sandbox(), COMPLETIONS).map((request) => request.body)).toEqual([sent]);
			texts.push(result.json[0].text);
		}
		expect(texts).toEqual([
			'Echo: raw chat',
			'Echo: raw responses',
			'Echo: raw gemini',
			'Echo: named gemini',
			'Echo: not responses',
			'Echo: openai',
		]);
	});

	it.each([
		[
			{ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true },
			/Streaming is not supported/,
			/sockets/,
		],
		[
			{ model: 'gpt-4o', prompt: 'Once upon a time' },
			/Legacy "prompt" completions are retired/,
			/chat-completions/,
		],
		[
			{ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], development: true },
			/development/,
			/refuses/,
		],
		[{ model: 'gpt-4o', input: 'x' }, /useResponses/, /useResponses": true/],
		[{ model: 'gpt-4o', input: 'x', useResponses: false }, /useResponses/, /useResponses": true/],
		[
			{ model: 'gemini-2.5-pro', contents: [], useResponses: false },
			/only for the responses format/,
			/Remove "useResponses"/,
		],
		[{ messages: [{ role: 'user', content: 'x' }] }, /no "model"/, /explicit "model"/],
		[{ model: 'gpt-4o', messages: [], contents: [] }, /mixes messages and contents/, /exactly one/],
		[
			{ model: 'gemini-2.5-pro', aiProvider: 'openai', contents: [] },
			/"aiProvider": "openai" does not go with "contents"/,
			/"aiProvider": "gemini"/,
		],
		[
			{ model: 'gpt-4o', aiProvider: 'gemini', messages: [] },
			/"aiProvider": "gemini" does not go with "messages"/,
			/without "aiProvider"/,
		],
	])('refuses %j before sending anything', async (body, message, description) => {
		const result = await generateText({ inputMode: 'json', jsonBody: JSON.stringify(body) });
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(description);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), COMPLETIONS)).toHaveLength(0);
	});

	it('refuses an empty prompt before sending, and continues on fail with the error on the item', async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateText',
				app: PUBLISHED_APP,
				prompt: '={{ $json.q }}',
			},
			input: [{ json: { q: 'One' } }, { json: { q: '' } }],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.json[0].text).toBe('Echo: One');
		expect(result.json[1].error).toBe('The prompt is empty');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(apiRequests(sandbox(), COMPLETIONS)).toHaveLength(1);
	});

	it('JSON Output: an answer that is not JSON fails the item, not a silently missing "data"', async () => {
		const answer = (content: string) => ({
			object: 'chat.completion',
			model: 'gpt-4o-mini',
			choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'length' }],
		});
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: answer('{"summary": "cut o'),
			path: 'ai/completions',
		});
		const result = await runAi(
			sandbox(),
			'generateText',
			{ prompt: '={{ $json.q }}', options: { jsonOutput: true } },
			{ input: [{ json: { q: 'First' } }, { json: { q: 'Second' } }], continueOnFail: true },
		);
		expect(
			apiRequests(sandbox(), COMPLETIONS).map((request) => request.body.response_format),
		).toEqual([{ type: 'json_object' }, { type: 'json_object' }]);
		expect(result.json[0]).toEqual({
			error: 'The model did not answer with valid JSON',
			description: expect.stringContaining('It answered "{"summary": "cut o". Ask for JSON'),
		});
		expect(result.json[1]).toEqual(
			expect.objectContaining({ text: '{"echo":"Second"}', data: { echo: 'Second' } }),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body: answer('Sure, here it is.'),
			path: 'ai/completions',
		});
		const failed = await generateText({ prompt: 'Hi', options: { jsonOutput: true } });
		expect(failed.error?.message).toBe('The model did not answer with valid JSON');
		expect(failed.error?.description).toMatch(/It answered "Sure, here it is\."\..*Maximum Tokens/);
		expect(failed.error?.context?.itemIndex).toBe(0);
	});

	it('a draft app id answers 404 and the error explains the published app id', async () => {
		const result = await generateText({ app: DRAFT_APP, prompt: 'Hi' }, TOKENS.org);
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toMatch(/productionAppId/);
		expect(apiRequests(sandbox(), COMPLETIONS)[0].path).toBe('/v1/apps/10/ai/completions');
	});

	it('an app picked by name is addressed by its published id', async () => {
		const result = await generateText(
			{ app: { __rl: true, mode: 'name', value: 'Staff Directory' }, prompt: 'Hi' },
			TOKENS.org,
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), COMPLETIONS).map((request) => request.path)).toEqual([
			'/v1/apps/11/ai/completions',
		]);
		expect(result.json[0].text).toBe('Echo: Hi');
	});

	it('402 when the app has no AI credits left, with how to fix it', async () => {
		sandbox().state.ai.credits = { 11: 0 };
		const result = await generateText({ prompt: 'Hi' });
		expect(result.error?.httpCode).toBe('402');
		expect(result.error?.description).toMatch(/credits/);
		expect(sandbox().state.ai.calls).toHaveLength(0);
	});

	it('a server failure after hand-off is not retried and says why', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 500, path: 'ai/completions' });
		const result = await generateText({ prompt: 'Hi' });
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.description).toMatch(/never re-sent automatically.*billed twice/);
		expect(sandbox().state.ai.calls).toHaveLength(1);
		expect(apiRequests(sandbox(), COMPLETIONS)).toHaveLength(1);
	});

	it('waits out a 429 and sends again (the AI area allows 10 per window)', async () => {
		const limiter = sandbox().rateLimiter;
		limiter.enabled = true;
		limiter.limits.ai = { limit: 1, windowMs: 300 };
		try {
			const result = await runNode({
				parameters: {
					resource: 'ai',
					operation: 'generateText',
					app: PUBLISHED_APP,
					prompt: '={{ $json.q }}',
				},
				input: [{ json: { q: 'a' } }, { json: { q: 'b' } }],
				credentials: sandboxCredential(sandbox()),
			});
			expect(result.error).toBeUndefined();
			expect(result.json.map((json) => json.text)).toEqual(['Echo: a', 'Echo: b']);
			expect(apiRequests(sandbox(), COMPLETIONS).map((request) => request.status)).toEqual([
				200, 429, 200,
			]);
		} finally {
			limiter.enabled = false;
			limiter.limits.ai = { limit: 10, windowMs: 60_000 };
		}
	});
});
