import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	runNode,
	sandboxCredential,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';
import { encryptFiles, formEntry, getWithFiles, PHOTO } from './fileFixtures';

// Real n8n keeps binary data on disk (or in its database) and passes only an id in the item: the
// downloads are stored there by id, and uploads read from there.
const sandbox = useSandbox();
const binaryData = useFilesystemBinaryData();

const big = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);

describe('Files with binary data in filesystem mode', () => {
	it('stores downloaded files by id, from the CDN and from the API host alike', async () => {
		const open = await formEntry(sandbox(), { Name: 'Public' }, [
			{ column: 'Photo', name: 'open.png', type: 'image/png', bytes: PHOTO },
		]);
		await encryptFiles(sandbox());
		const locked = await formEntry(sandbox(), { Name: 'Encrypted' }, [
			{ column: 'Video', name: 'site.mp4', type: 'video/mp4', bytes: big },
		]);
		const result = await runNode({
			parameters: { ...getWithFiles(0), entryId: '={{ $json.entryId }}' },
			input: [{ json: { entryId: open.id } }, { json: { entryId: locked.id } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const photo = result.items[0].binary!.Photo;
		const video = result.items[1].binary!.Video;
		for (const binary of [photo, video]) {
			expect(binary.id).toMatch(/^filesystem/);
			expect(binary.data).not.toMatch(/^[A-Za-z0-9+/]{100,}/);
		}
		expect(sandbox().cdnRequests).toHaveLength(1);
		expect(apiRequests(sandbox(), /\/contents\//)).toHaveLength(1);
		expect((await binaryData().getAsBuffer(photo)).equals(PHOTO)).toBe(true);
		expect((await binaryData().getAsBuffer(video)).equals(big)).toBe(true);
		expect(video.mimeType).toBe('video/mp4');
		expect(video.bytes).toBe(big.length);
	});

	it('ends a download whose host stalls after its headers, as in memory (docs/files.md)', async () => {
		await encryptFiles(sandbox());
		const entry = await formEntry(sandbox(), { Name: 'Stalled' }, [
			{ column: 'Video', name: 'site.mp4', type: 'video/mp4', bytes: big },
		]);
		sandbox().injectFault({ mode: 'stall-after', path: '/contents/' });
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: { flipletApi: { ...sandboxCredential(sandbox()).flipletApi, timeout: 1 } },
		});
		expect(result.error?.message).toBe(
			`Column "Video": The download of site.mp4 from ${sandbox().url} stalled: no data for 1 s`,
		);
		const [request] = apiRequests(sandbox(), /\/contents\//);
		await request.closed;
		expect(request.abandoned).toBe(true);
	});

	it("Update streams the item's file from disk onto the entry", async () => {
		const entry = await formEntry(sandbox(), { Name: 'Before' }, []);
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'update',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				entryId: String(entry.id),
				columns: { mappingMode: 'defineBelow', value: { Name: 'After' } },
				files: { file: [{ column: 'Video', binaryPropertyName: 'clip' }] },
			},
			input: [
				{
					json: {},
					binary: {
						clip: { data: big.toString('base64'), fileName: 'clip.mp4', mimeType: 'video/mp4' },
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), new RegExp(`/data/${entry.id}$`));
		expect(Number(request.headers['content-length'])).toBe(request.bytes);
		expect(request.body.multipart.files[0].data.equals(big)).toBe(true);
		const stored = sandbox().state.media.get((result.json[0].data as IDataObject).VideoMediaFileId);
		expect(stored.data.equals(big)).toBe(true);
	});
});
