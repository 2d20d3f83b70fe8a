import {
	apiRequests,
	runNode,
	sandboxCredential,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

// Real n8n keeps binary data on disk and passes only an id in the item: the node must read it
// through n8n's helpers.
useFilesystemBinaryData();

const photo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('Entry Insert with files (binary data stored on disk)', () => {
	it('sends text columns and the file as multipart; the column gets the URL and <column>MediaFileId', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				columns: { mappingMode: 'defineBelow', value: { Name: 'Gus Hale', Age: 52 } },
				files: { file: [{ column: 'Photo', binaryPropertyName: 'picture' }] },
			},
			input: [
				{
					json: {},
					binary: {
						picture: { data: photo.toString('base64'), fileName: 'gus.png', mimeType: 'image/png' },
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const inputItem = result.run.data.resultData.runData['Input'][0].data!.main[0]![0];
		expect(inputItem.binary?.picture.id).toMatch(/^filesystem/);

		const [request] = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data$/);
		expect(request.method).toBe('PUT');
		expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		// Streamed from disk with its exact length announced: every byte announced arrived.
		expect(Number(request.headers['content-length'])).toBe(request.bytes);
		expect(request.body.multipart.fields).toEqual({ Name: 'Gus Hale', Age: '52' });
		expect(request.body.multipart.files).toHaveLength(1);
		const [file] = request.body.multipart.files;
		expect(file).toMatchObject({ name: 'Photo', fileName: 'gus.png', mimeType: 'image/png' });
		expect(Buffer.compare(file.data, photo)).toBe(0);

		const entry = result.json[0] as { data: Record<string, unknown>; deletedAt: unknown };
		expect(entry.deletedAt).toBeNull();
		// The app's files are public (its preset rule): the URL is on the CDN-like host.
		expect(String(entry.data.Photo).startsWith(`${sandbox().cdnUrl}/apps/11/`)).toBe(true);
		expect(entry.data.PhotoMediaFileId).toEqual(expect.any(Number));
		const served = await fetch(String(entry.data.Photo));
		expect(served.headers.get('content-type')).toBe('image/png');
		expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), photo)).toBe(0);
	});

	it('a missing binary field is refused before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				columns: { mappingMode: 'defineBelow', value: { Name: 'No file' } },
				files: { file: [{ column: 'Photo', binaryPropertyName: 'picture' }] },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toMatch(/picture/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});
});
