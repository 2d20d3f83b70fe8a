import {
	apiRequests,
	runNode,
	sandboxCredential,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';
import { AUDIO, PUBLISHED_APP } from './fixtures';

// Real n8n stores binary data by id (on disk here), not inline: the AI operations must read and
// write it only through n8n's binary helpers.
const sandbox = useSandbox();
const binaryData = useFilesystemBinaryData();

describe('AI binary data in filesystem mode', () => {
	it('transcribes audio stored by id', async () => {
		const audio = Buffer.from('stored on disk');
		const result = await runNode({
			parameters: { resource: 'ai', operation: 'transcribeAudio', app: PUBLISHED_APP },
			input: [
				{
					json: {},
					binary: {
						data: { data: audio.toString('base64'), mimeType: 'audio/ogg', fileName: 'disk.ogg' },
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const stored = result.run.data.resultData.runData.Input[0].data!.main[0]![0].binary!.data;
		expect(stored.id).toEqual(expect.stringMatching(/^filesystem/));
		expect(stored.data).not.toBe(audio.toString('base64'));
		expect(result.json).toEqual([{ text: `Transcript of disk.ogg (${audio.length} bytes)` }]);
		const [request] = apiRequests(sandbox(), AUDIO);
		expect(Buffer.compare(request.body.multipart.files[0].data, audio)).toBe(0);
	});

	it('stores generated images by id, readable as a PNG', async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateImage',
				app: PUBLISHED_APP,
				prompt: 'teal',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary!.data;
		expect(binary.id).toEqual(expect.stringMatching(/^filesystem/));
		const bytes = await binaryData().getAsBuffer(binary);
		expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
		expect(bytes.length).toBeGreaterThan(50);
	});
});
