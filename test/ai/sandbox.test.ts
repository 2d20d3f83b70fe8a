import { callSandbox, TOKENS, useSandbox } from '../harness';

// The AI endpoints of the sandbox itself, called over plain HTTP: they must follow the API's
// contract whatever the node does.
const sandbox = useSandbox();

const post = (path: string, body: unknown, token = TOKENS.app) =>
	callSandbox(sandbox(), 'POST', path, body, token);

function audioForm(parts: {
	model?: string;
	file?: Blob;
	fileName?: string;
	extra?: Record<string, string>;
}) {
	const form = new FormData();
	if (parts.model) form.append('model', parts.model);
	for (const [name, value] of Object.entries(parts.extra ?? {})) form.append(name, value);
	if (parts.file) form.append('file', parts.file, parts.fileName ?? 'a.wav');
	return form;
}

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('Sandbox AI endpoints', () => {
	it.each([
		['the draft id, app token', '/v1/apps/10/ai/completions', TOKENS.app],
		['the draft id, organization token', '/v1/apps/10/ai/completions', TOKENS.org],
		['the draft id, Studio user token', '/v1/apps/10/ai/completions', TOKENS.studio],
		['another app of the organization, app token', '/v1/apps/21/ai/completions', TOKENS.app],
		['an app of another organization', '/v1/apps/31/ai/completions', TOKENS.org],
	])('answers 404 for %s', async (_case, path, token) => {
		const { status, body } = await post(path, CHAT, token);
		expect(status).toBe(404);
		expect(body.message).toMatch(/productionAppId/);
		expect(sandbox().state.ai.calls).toHaveLength(0);
	});

	it('routes a Gemini body by aiProvider, as the platform does, and refuses it without', async () => {
		const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
		const gemini = await post('/v1/apps/11/ai/completions', {
			model: 'gemini-2.5-flash',
			aiProvider: 'gemini',
			contents,
		});
		expect(gemini.status).toBe(200);
		expect(gemini.body.candidates[0].content.parts.length).toBeGreaterThan(0);
		// Without aiProvider the platform sends the body to OpenAI, which wants messages.
		const unrouted = await post('/v1/apps/11/ai/completions', {
			model: 'gemini-2.5-flash',
			contents,
		});
		expect(unrouted).toEqual({
			status: 400,
			body: { message: "Missing required parameter: 'messages'.", type: 'ai.provider' },
		});
		const crossed = await post('/v1/apps/11/ai/completions', { ...CHAT, aiProvider: 'gemini' });
		expect(crossed.body.message).toBe("Missing required parameter: 'contents'.");
		const unknown = await post('/v1/apps/11/ai/completions', { ...CHAT, aiProvider: 'claude' });
		expect(unknown.status).toBe(400);
		expect(sandbox().state.ai.calls).toHaveLength(1);
	});

	it.each([
		['o3-mini', 'completions', { messages: CHAT.messages }],
		['gpt-4', 'completions', { messages: CHAT.messages }],
		['gpt-3.5-turbo', 'completions', { messages: CHAT.messages }],
		['gpt-4-0125-preview', 'completions', { messages: CHAT.messages }],
		['gpt-4o-2024-08-06', 'completions', { input: 'hi', useResponses: true }],
		[
			'gemini-2.5-flash',
			'completions',
			{ aiProvider: 'gemini', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
		],
		['gpt-image-1.5', 'image', { prompt: 'a cat' }],
	])("knows %s, which the platform's own code uses", async (model, endpoint, body) => {
		const answer = await post(`/v1/apps/11/ai/${endpoint}`, { model, ...body });
		expect(answer.status).toBe(200);
	});

	it("passes on Google's refusal of gemini-1.5-flash, which the docs still name but Google shut down, and charges nothing", async () => {
		const answer = await post('/v1/apps/11/ai/completions', {
			model: 'gemini-1.5-flash',
			aiProvider: 'gemini',
			contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
		});
		expect(answer).toEqual({
			status: 400,
			body: {
				message:
					'models/gemini-1.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.',
				type: 'ai.provider',
			},
		});
		expect(sandbox().state.ai.calls).toHaveLength(0);
		expect(sandbox().state.ai.credits?.[11]).toBeUndefined();
	});

	it('serves the published app to organization and user tokens too', async () => {
		expect((await post('/v1/apps/11/ai/completions', CHAT, TOKENS.org)).status).toBe(200);
		expect((await post('/v1/apps/11/ai/completions', CHAT, TOKENS.studio)).status).toBe(200);
	});

	it('refuses a development parameter in the query, the JSON body or the form', async () => {
		expect((await post('/v1/apps/11/ai/completions?development=false', CHAT)).status).toBe(400);
		expect(
			(
				await post('/v1/apps/11/ai/embeddings', {
					model: 'text-embedding-3-small',
					input: 'x',
					development: 0,
				})
			).status,
		).toBe(400);
		const form = audioForm({
			file: new Blob(['x'], { type: 'audio/wav' }),
			extra: { development: '1' },
		});
		expect((await post('/v1/apps/11/ai/audio', form)).body.message).toMatch(/development/);
	});

	it('accepts useResponses: false with messages (the chat-completions format)', async () => {
		const { status, body } = await post('/v1/apps/11/ai/completions', {
			...CHAT,
			useResponses: false,
		});
		expect(status).toBe(200);
		expect(body.choices[0].message.content).toEqual(expect.any(String));
	});

	it('acknowledges a streamed completion without content', async () => {
		const { status, body } = await post('/v1/apps/11/ai/completions', { ...CHAT, stream: true });
		expect(status).toBe(200);
		expect(body).not.toHaveProperty('choices');
		expect(sandbox().state.ai.calls[0]).toEqual(
			expect.objectContaining({ stream: true, format: 'chat-completions' }),
		);
	});

	it.each([
		[{ model: 'gpt-4o-mini', prompt: 'Once' }, /Legacy prompt/],
		[{ model: 'gpt-4o-mini', input: 'x' }, /useResponses/],
		[{ model: 'gpt-4o-mini', input: 'x', useResponses: false }, /useResponses/],
		[{ model: 'gpt-4o-mini', messages: CHAT.messages, contents: [] }, /exactly one/],
		[{ messages: CHAT.messages }, /model/],
		[{ model: 'gemini-2.5-flash', messages: CHAT.messages }, /not configured for chat-completions/],
	])('answers 400 to the completion %j', async (body, message) => {
		const response = await post('/v1/apps/11/ai/completions', body);
		expect(response.status).toBe(400);
		expect(response.body.message).toMatch(message);
	});

	it('replaces a legacy image model and drops response_format and style', async () => {
		const { status, body } = await post('/v1/apps/11/ai/image', {
			model: 'dall-e-3',
			prompt: 'a cat',
			response_format: 'url',
			style: 'vivid',
			size: '1024x1024',
		});
		expect(status).toBe(200);
		expect(body.data).toEqual([{ b64_json: expect.stringMatching(/^iVBORw0KGgo/) }]);
		expect(sandbox().state.ai.calls[0].forwarded).toEqual({
			model: 'gpt-image-1.5',
			prompt: 'a cat',
			size: '1024x1024',
		});
	});

	it('transcription: missing file, unsupported model, size and type limits', async () => {
		const wav = (bytes: number, type = 'audio/wav') => new Blob([Buffer.alloc(bytes)], { type });
		expect((await post('/v1/apps/11/ai/audio', audioForm({ model: 'whisper-1' }))).body).toEqual({
			message: 'Missing audio file',
		});
		expect((await post('/v1/apps/11/ai/audio', { file: 'not multipart' })).body).toEqual({
			message: 'Missing audio file',
		});
		expect(
			(await post('/v1/apps/11/ai/audio', audioForm({ model: 'whisper-2', file: wav(3) }))).status,
		).toBe(400);
		expect(
			(await post('/v1/apps/11/ai/audio', audioForm({ file: wav(25 * 1024 * 1024 + 1) }))).status,
		).toBe(413);
		expect(
			(await post('/v1/apps/11/ai/audio', audioForm({ file: wav(3, 'audio/aac') }))).status,
		).toBe(415);
		const ok = await post(
			'/v1/apps/11/ai/audio',
			audioForm({ file: wav(25 * 1024 * 1024, 'audio/webm;codecs=opus') }),
		);
		expect(ok).toEqual({
			status: 200,
			body: { text: `Transcript of a.wav (${25 * 1024 * 1024} bytes)` },
		});
	});

	it('embeddings: input is required', async () => {
		const response = await post('/v1/apps/11/ai/embeddings', { model: 'text-embedding-3-small' });
		expect(response.status).toBe(400);
		expect(response.body.message).toMatch(/input/);
	});

	it('402 once the app has no credit, and each success takes one', async () => {
		sandbox().state.ai.credits = { 11: 1 };
		expect((await post('/v1/apps/11/ai/completions', CHAT)).status).toBe(200);
		const refused = await post('/v1/apps/11/ai/completions', CHAT);
		expect(refused.status).toBe(402);
		expect(sandbox().state.ai.calls).toHaveLength(1);
	});

	it('all four endpoints share the AI rate-limit area', async () => {
		const limiter = sandbox().rateLimiter;
		limiter.enabled = true;
		limiter.limits.ai = { limit: 2, windowMs: 60_000 };
		try {
			expect((await post('/v1/apps/11/ai/completions', CHAT)).status).toBe(200);
			expect(
				(await post('/v1/apps/11/ai/embeddings', { model: 'text-embedding-3-small', input: 'x' }))
					.status,
			).toBe(200);
			const limited = await post('/v1/apps/11/ai/image', { model: 'gpt-image-1', prompt: 'x' });
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual(
				expect.objectContaining({ nextValidRequestDate: expect.any(String) }),
			);
		} finally {
			limiter.enabled = false;
			limiter.limits.ai = { limit: 10, windowMs: 60_000 };
		}
	});
});
