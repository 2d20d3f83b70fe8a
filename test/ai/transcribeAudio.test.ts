import { apiRequests, useSandbox, type TestItem } from '../harness';
import { AUDIO } from './fixtures';
import { runAi } from './runAi';

const sandbox = useSandbox();
const MIB_25 = 25 * 1024 * 1024;

function audioItem(data: Buffer, mimeType: string, fileName = 'memo.webm'): TestItem {
	return { json: {}, binary: { data: { data: data.toString('base64'), mimeType, fileName } } };
}

function transcribe(
	input: TestItem[],
	parameters: Record<string, unknown> = {},
	continueOnFail = false,
) {
	return runAi(sandbox(), 'transcribeAudio', parameters, { input, continueOnFail });
}

describe('AI → Transcribe Audio', () => {
	it('sends one file part with its name, the model as a field, and no JSON content type', async () => {
		const audio = Buffer.from('fake opus frames');
		const result = await transcribe([audioItem(audio, 'audio/webm;codecs=opus')], {
			model: 'whisper-1',
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), AUDIO);
		expect(request.path).toBe('/v1/apps/11/ai/audio');
		expect(request.headers['accept']).toBe('application/json');
		expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
		expect(request.body.multipart.fields).toEqual({ model: 'whisper-1' });
		expect(request.body.multipart.files).toHaveLength(1);
		const [file] = request.body.multipart.files;
		expect(file).toEqual(
			expect.objectContaining({
				name: 'file',
				fileName: 'memo.webm',
				mimeType: 'audio/webm;codecs=opus',
			}),
		);
		expect(Buffer.compare(file.data, audio)).toBe(0);
		expect(result.json).toEqual([{ text: `Transcript of memo.webm (${audio.length} bytes)` }]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('accepts exactly 25 MiB: the file goes through the sandbox', async () => {
		const audio = Buffer.alloc(MIB_25, 7);
		const result = await transcribe([audioItem(audio, 'audio/mpeg', 'long.mp3')]);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ text: `Transcript of long.mp3 (${MIB_25} bytes)` }]);
		const [request] = apiRequests(sandbox(), AUDIO);
		expect(request.status).toBe(200);
		expect(request.body.multipart.files[0].data.length).toBe(MIB_25);
		expect(request.body.multipart.fields).toEqual({ model: 'gpt-4o-mini-transcribe' });
	});

	it('refuses 25 MiB + 1 byte before sending (413-like)', async () => {
		const result = await transcribe([
			audioItem(Buffer.alloc(MIB_25 + 1), 'audio/mpeg', 'long.mp3'),
		]);
		expect(result.error?.message).toBe(
			`The audio file is too large: ${MIB_25 + 1} bytes, the limit is 25 MiB (${MIB_25} bytes)`,
		);
		expect(result.error?.description).toMatch(/at most 25 MiB/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), AUDIO)).toHaveLength(0);
	});

	it('checks the MIME base type (415-like) and accepts codec suffixes, item by item', async () => {
		const small = Buffer.from('abc');
		const result = await transcribe(
			[
				audioItem(small, 'audio/ogg; codecs=opus', 'a.ogg'),
				audioItem(small, 'audio/flac', 'b.flac'),
				audioItem(small, 'audio/wav', 'c.wav'),
				audioItem(small, 'audio/mp4', 'd.m4a'),
				audioItem(small, 'video/quicktime', 'e.mov'),
			],
			{},
			true,
		);
		expect(result.json.map((json) => json.text ?? json.error)).toEqual([
			'Transcript of a.ogg (3 bytes)',
			'The audio type "audio/flac" is not supported',
			'Transcript of c.wav (3 bytes)',
			'Transcript of d.m4a (3 bytes)',
			'The audio type "video/quicktime" is not supported',
		]);
		expect(result.json[1].description).toMatch(
			/audio\/webm, audio\/mp4, audio\/mpeg, audio\/wav, audio\/ogg/,
		);
		expect(
			apiRequests(sandbox(), AUDIO).map((request) => request.body.multipart.files[0].fileName),
		).toEqual(['a.ogg', 'c.wav', 'd.m4a']);
	});

	it('sends files n8n or browsers label with another name of an accepted type under that type', async () => {
		const small = Buffer.from('abc');
		// n8n's own file reading labels .wav audio/wave and .webm video/webm.
		const result = await transcribe([
			audioItem(small, 'audio/wave', 'memo.wav'),
			audioItem(small, 'video/webm;codecs=opus', 'call.webm'),
			audioItem(small, 'audio/x-m4a', 'voice.m4a'),
			audioItem(small, 'audio/mp3', 'song.mp3'),
		]);
		expect(result.error).toBeUndefined();
		expect(result.json.map((json) => json.text)).toEqual([
			'Transcript of memo.wav (3 bytes)',
			'Transcript of call.webm (3 bytes)',
			'Transcript of voice.m4a (3 bytes)',
			'Transcript of song.mp3 (3 bytes)',
		]);
		expect(
			apiRequests(sandbox(), AUDIO).map((request) => request.body.multipart.files[0].mimeType),
		).toEqual(['audio/wav', 'audio/webm;codecs=opus', 'audio/mp4', 'audio/mpeg']);
	});

	it('a failure after hand-off is not retried: one call recorded, and the error says why', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 500, path: 'ai/audio' });
		const result = await transcribe([audioItem(Buffer.from('abc'), 'audio/wav', 'x.wav')]);
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.description).toMatch(/not sent again automatically/);
		expect(result.error?.description).toMatch(/billed twice/);
		expect(sandbox().state.ai.calls).toEqual([
			expect.objectContaining({ endpoint: 'audio', fileName: 'x.wav' }),
		]);
		expect(apiRequests(sandbox(), AUDIO)).toHaveLength(1);
	});

	it('a connection lost after hand-off is not retried either', async () => {
		sandbox().injectFault({ mode: 'drop-after', path: 'ai/audio' });
		const result = await transcribe([audioItem(Buffer.from('abc'), 'audio/wav', 'x.wav')]);
		expect(result.error?.message).toMatch(/Could not reach the Fliplet API/);
		expect(result.error?.description).toMatch(/billed twice/);
		expect(sandbox().state.ai.calls).toHaveLength(1);
		expect(apiRequests(sandbox(), AUDIO)).toHaveLength(1);
	});

	it('names the missing binary property', async () => {
		const result = await transcribe([{ json: {} }], { binaryPropertyName: 'recording' });
		expect(result.error?.message).toMatch(/recording/);
		expect(apiRequests(sandbox(), AUDIO)).toHaveLength(0);
	});
});
