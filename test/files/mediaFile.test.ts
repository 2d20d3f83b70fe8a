import type { INodeParameters } from 'n8n-workflow';

import {
	apiRequests,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';
import { PHOTO, RECEIPT, setAppFileRules, readableByAppToken } from './fileFixtures';
import { APP, makeFolder, ORG, uploadFile } from './mediaFixtures';

// The Media File resource: the media library's files, listed, uploaded from binary data (streamed
// from disk), downloaded into binary data and deleted, on the routes of the media REST docs.
const sandbox = useSandbox();
const binaryData = useFilesystemBinaryData();

const credential = (token = TOKENS.org) => sandboxCredential(sandbox(), token);
const live = () =>
	[...sandbox().state.media.values()].filter((file: { deletedAt: unknown }) => !file.deletedAt);

describe('Media File → Get Many', () => {
	it("lists an app's files, not those of its folders", async () => {
		const folder = await makeFolder(sandbox(), 'Inspections');
		const top = await uploadFile(sandbox(), 'appId=11', 'top.png', PHOTO);
		await uploadFile(sandbox(), `folderId=${folder.id}`, 'inside.png', PHOTO);
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'getMany',
				location: 'app',
				app: APP,
				returnAll: true,
			},
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((file) => [file.id, file.name])).toEqual([[top.id, 'top.png']]);
		expect(result.json[0]).not.toHaveProperty('data');
		expect(apiRequests(sandbox(), /^\/v1\/media$/)[0].query).toEqual({ appId: '11' });
	});

	it("lists an organization's own files, up to the limit", async () => {
		await uploadFile(sandbox(), 'organizationId=1', 'a.pdf', RECEIPT, 'application/pdf');
		await uploadFile(sandbox(), 'organizationId=1', 'b.pdf', RECEIPT, 'application/pdf');
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'getMany',
				location: 'organization',
				organization: ORG,
				returnAll: false,
				limit: 1,
			},
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((file) => file.name)).toEqual(['a.pdf']);
	});

	it.each(['folderAlone', 'withOrganization'] as const)(
		"lists a folder's files with its organization (reading %s)",
		async (reading) => {
			setSandboxReadings(sandbox(), { mediaFolderList: reading });
			const folder = await makeFolder(sandbox(), 'Receipts');
			const file = await uploadFile(sandbox(), `folderId=${folder.id}`, 'r.pdf', RECEIPT);
			const result = await runNode({
				parameters: {
					resource: 'mediaFile',
					operation: 'getMany',
					location: 'folder',
					folderId: String(folder.id),
					organization: ORG,
					returnAll: true,
				},
				credentials: credential(),
			});
			expect(result.error).toBeUndefined();
			expect(result.json.map((json) => json.id)).toEqual([file.id]);
			expect(apiRequests(sandbox(), /^\/v1\/media$/)[0].query).toEqual({
				folderId: String(folder.id),
				organizationId: '1',
			});
		},
	);
});

describe('Media File → Upload', () => {
	const binaryInput = (bytes: Buffer, fileName = 'site.png') => [
		{
			json: {},
			binary: { data: { data: bytes.toString('base64'), fileName, mimeType: 'image/png' } },
		},
	];

	it('streams the binary data from disk into a folder, as the media REST docs send it', async () => {
		const folder = await makeFolder(sandbox(), 'Site photos');
		const bytes = Buffer.alloc(2 * 1024 * 1024 + 3, 9);
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'upload',
				location: 'folder',
				folderId: String(folder.id),
				binaryPropertyName: 'data',
				options: { fileName: 'renamed.png' },
			},
			input: binaryInput(bytes),
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/media\/files$/);
		expect(request.method).toBe('POST');
		expect(request.query).toEqual({ folderId: String(folder.id) });
		expect(Number(request.headers['content-length'])).toBe(request.bytes);
		expect(request.body.multipart.fields).toEqual({ 'name[0]': 'renamed.png' });
		expect(request.body.multipart.files).toHaveLength(1);
		expect(request.body.multipart.files[0]).toMatchObject({
			name: 'files[0]',
			fileName: 'renamed.png',
			mimeType: 'image/png',
		});
		const [file] = result.json;
		expect(file).toMatchObject({
			name: 'renamed.png',
			mediaFolderId: folder.id,
			organizationId: 1,
		});
		expect(sandbox().state.media.get(file.id).data.equals(bytes)).toBe(true);
	});

	it("is refused with the file's access rules when an app token may not create files there", async () => {
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'upload',
				location: 'app',
				app: APP,
				binaryPropertyName: 'data',
			},
			input: binaryInput(PHOTO),
			credentials: credential(TOKENS.app),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toEqual({
			error: 'You do not have permission to create files here',
			description: expect.stringMatching(/access rules/),
		});
		expect(live()).toEqual([]);
	});

	it("gets longer than the credential's timeout for a large file: the time to send it at 100 kB/s", async () => {
		// 1 MB: 10.5 s more than the 1 s timeout; the answer comes 3 s after the upload.
		sandbox().injectFault({
			mode: 'delay',
			delayMs: 3000,
			method: 'POST',
			path: '^/v1/media/files$',
		});
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'upload',
				location: 'organization',
				organization: ORG,
				binaryPropertyName: 'data',
			},
			input: binaryInput(Buffer.alloc(1_048_576, 3)),
			credentials: {
				flipletApi: { ...credential().flipletApi, timeout: 1 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(live()).toHaveLength(1);
	});

	it('is not sent again after its answer was lost', async () => {
		sandbox().injectFault({ mode: 'drop-after', method: 'POST', path: '^/v1/media/files$' });
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'upload',
				location: 'organization',
				organization: ORG,
				binaryPropertyName: 'data',
			},
			input: binaryInput(PHOTO),
			credentials: credential(),
		});
		expect(result.error?.description).toMatch(/may already have been processed/);
		expect(apiRequests(sandbox(), /^\/v1\/media\/files$/)).toHaveLength(1);
		expect(live()).toHaveLength(1);
	});
});

describe('Media File → Download', () => {
	const download = (fileId: number, options: INodeParameters = {}, token = TOKENS.org) =>
		runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'download',
				fileId: String(fileId),
				binaryPropertyName: 'file',
				options,
			},
			credentials: credential(token),
		});

	it('reads the metadata, then the bytes of a public file from the CDN without the token, onto disk', async () => {
		const file = await uploadFile(sandbox(), 'appId=11', 'chair.png', PHOTO);
		const result = await download(file.id);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ id: file.id, name: 'chair.png', contentType: 'image/png' });
		expect(item.binary!.file).toMatchObject({ fileName: 'chair.png', mimeType: 'image/png' });
		expect(item.binary!.file.id).toMatch(/^filesystem/);
		expect((await binaryData().getAsBuffer(item.binary!.file)).equals(PHOTO)).toBe(true);
		expect(apiRequests(sandbox(), /^\/v1\/media\/files\//).map((r) => r.path)).toEqual([
			`/v1/media/files/${file.id}`,
		]);
		expect(sandbox().cdnRequests.map((request) => request.headers['auth-token'])).toEqual([
			undefined,
		]);
	});

	it('reads a private file through the API host with the token', async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const file = await uploadFile(sandbox(), 'appId=11', 'plan.pdf', RECEIPT, 'application/pdf');
		const result = await download(file.id, {}, TOKENS.app);
		expect(result.error).toBeUndefined();
		expect((await binaryData().getAsBuffer(result.items[0].binary!.file)).equals(RECEIPT)).toBe(
			true,
		);
		const [contents] = apiRequests(sandbox(), /\/contents\//);
		expect(contents.headers['auth-token']).toBe(TOKENS.app);
		expect(sandbox().cdnRequests).toEqual([]);
	});

	it('asks the contents route for an image transform', async () => {
		const file = await uploadFile(sandbox(), 'appId=11', 'wide.png', PHOTO);
		const result = await download(file.id, { size: 'medium', format: 'webp', quality: 70 });
		expect(result.error).toBeUndefined();
		const [contents] = apiRequests(sandbox(), /\/contents$/);
		expect(contents.path).toBe(`/v1/media/files/${file.id}/contents`);
		expect(contents.query).toEqual({ size: 'medium', format: 'webp', quality: '70' });
		expect(contents.headers['auth-token']).toBe(TOKENS.org);
	});

	it("a file that does not exist is the item's error", async () => {
		const result = await download(987654);
		expect(result.error?.message).toBe('File not found');
	});
});

describe('Media File → Delete', () => {
	it('deletes the file; a retry after a lost answer finds it gone and succeeds', async () => {
		const file = await uploadFile(sandbox(), 'appId=11', 'old.png', PHOTO);
		sandbox().injectFault({ mode: 'drop-after', method: 'DELETE', path: '^/v1/media/files/' });
		const result = await runNode({
			parameters: { resource: 'mediaFile', operation: 'delete', fileId: String(file.id) },
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ deleted: true, id: file.id }]);
		expect(live()).toEqual([]);
		expect(apiRequests(sandbox(), /^\/v1\/media\/files\//).map((r) => r.method)).toEqual([
			'DELETE',
			'DELETE',
		]);
	});

	it('refuses a file ID that is not a number before any request', async () => {
		const result = await runNode({
			parameters: { resource: 'mediaFile', operation: 'delete', fileId: '../folders/1' },
			credentials: credential(),
			continueOnFail: true,
		});
		expect(result.json[0].error).toBe('File ID: "../folders/1" is not an id');
		expect(sandbox().requests).toEqual([]);
	});
});
