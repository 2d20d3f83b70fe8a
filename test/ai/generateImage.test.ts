/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { inflateSync } from 'zlib';

import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';
import { IMAGE, PUBLISHED_APP } from './fixtures';

const sandbox = useSandbox();

/** Width, height and the RGB of the first pixel of an 8-bit RGB PNG, read from its chunks. */
function decodePng(bytes: Buffer) {
	expect(bytes.subarray(0, 8)).toEqual(
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	);
	let offset = 8;
	const chunks: Record<string, Buffer> = {};
	while (offset < bytes.length) {
		const length = bytes.readUInt32BE(offset);
		const type = bytes.subarray(offset + 4, offset + 8).toString('ascii');
		chunks[type] = bytes.subarray(offset + 8, offset + 8 + length);
		offset += 12 + length;
	}
	const pixels = inflateSync(chunks.IDAT);
	return {
		width: chunks.IHDR.readUInt32BE(0),
		height: chunks.IHDR.readUInt32BE(4),
		rgb: [...pixels.subarray(1, 4)],
		ended: 'IEND' in chunks,
	};
}

async function binaryBytes(
	result: Awaited<ReturnType<typeof runNode>>,
	itemIndex: number,
	property: string,
) {
	const binary = result.items[itemIndex].binary![property];
	return { binary, bytes: Buffer.from(binary.data, 'base64') };
}

describe('AI → Generate Image', () => {
	it('sends the image options and outputs one decodable PNG per image, paired', async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateImage',
				app: PUBLISHED_APP,
				model: 'gpt-image-1',
				prompt: 'A teal square',
				options: { n: 2, size: '1024x1024', quality: 'low', outputFormat: 'png' },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), IMAGE);
		expect(request.path).toBe('/v1/apps/11/ai/image');
		expect(request.body).toEqual({
			model: 'gpt-image-1',
			prompt: 'A teal square',
			n: 2,
			size: '1024x1024',
			quality: 'low',
			output_format: 'png',
		});
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(result.json.map((json) => json.index)).toEqual([0, 1]);
		for (const index of [0, 1]) {
			const { binary, bytes } = await binaryBytes(result, index, 'data');
			expect(binary.mimeType).toBe('image/png');
			expect(binary.fileName).toBe(`image-${index + 1}.png`);
			expect(decodePng(bytes)).toEqual({ width: 1, height: 1, rgb: [0, 128, 128], ended: true });
		}
	});

	it("puts all images on one item when asked, named after the output format, with the docs' default model", async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateImage',
				app: PUBLISHED_APP,
				prompt: 'Icons',
				options: { n: 3, outputFormat: 'webp', oneItem: true, binaryPropertyName: 'image' },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		// The model left at its default: gpt-image-1.5, the default of Fliplet's AI docs.
		expect(apiRequests(sandbox(), IMAGE)[0].body).toEqual({
			model: 'gpt-image-1.5',
			prompt: 'Icons',
			n: 3,
			output_format: 'webp',
		});
		expect(result.items).toHaveLength(1);
		expect(result.json[0]).toEqual(expect.objectContaining({ images: 3, model: 'gpt-image-1.5' }));
		const binary = result.items[0].binary!;
		expect(Object.keys(binary).sort()).toEqual(['image', 'image_1', 'image_2']);
		expect(binary.image_2).toEqual(
			expect.objectContaining({ mimeType: 'image/webp', fileName: 'image-3.webp' }),
		);
	});

	it('refuses an empty prompt and a bad image count before sending', async () => {
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateImage',
				app: PUBLISHED_APP,
				prompt: '={{ $json.p }}',
				options: { n: '={{ $json.n }}' },
			},
			input: [{ json: { p: '', n: 1 } }, { json: { p: 'ok', n: 11 } }],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.json.map((json) => json.error)).toEqual([
			'The prompt is empty',
			'Number of images must be 1 to 10, not 11',
		]);
		expect(apiRequests(sandbox(), IMAGE)).toHaveLength(0);
	});
});
