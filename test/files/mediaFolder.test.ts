import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { PHOTO } from './fileFixtures';
import { APP, makeFolder, ORG, uploadFile } from './mediaFixtures';

// The Media Folder resource: create, list and delete the media library's folders.
const sandbox = useSandbox();
const credential = (token = TOKENS.org) => sandboxCredential(sandbox(), token);
const folders = () => [...sandbox().state.mediaFolders.values()];

describe('Media Folder → Create', () => {
	it.each([
		['an app', { location: 'app', app: APP }, { appId: 11 }, { appId: 11, parentId: null }],
		[
			'an organization',
			{ location: 'organization', organization: ORG },
			{ organizationId: 1 },
			{ appId: null, parentId: null },
		],
	])('creates a folder in %s', async (_where, location, body, stored) => {
		const result = await runNode({
			parameters: { resource: 'mediaFolder', operation: 'create', name: 'Photos', ...location },
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/media\/folders$/);
		expect(request.body).toEqual({ name: 'Photos', ...body });
		expect(result.json).toEqual([
			expect.objectContaining({
				id: expect.any(Number),
				name: 'Photos',
				organizationId: 1,
				...stored,
			}),
		]);
		expect(folders()).toHaveLength(1);
	});

	it('creates a subfolder, sending the parent with its organization as the REST docs do', async () => {
		const parent = await makeFolder(sandbox(), 'Reports');
		const result = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'create',
				name: '2026',
				location: 'folder',
				folderId: String(parent.id),
				organization: ORG,
			},
			credentials: credential(),
		});
		expect(result.error).toBeUndefined();
		const request = apiRequests(sandbox(), /^\/v1\/media\/folders$/).at(-1)!;
		expect(request.body).toEqual({ name: '2026', parentId: parent.id, organizationId: 1 });
		expect(result.json[0]).toMatchObject({ name: '2026', parentId: parent.id, appId: 11 });
	});

	it('refuses an empty name before any request, and is never sent twice on its own', async () => {
		const empty = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'create',
				name: '  ',
				location: 'app',
				app: APP,
			},
			credentials: credential(),
		});
		expect(empty.error?.message).toBe('The folder has no name');
		sandbox().injectFault({ mode: 'status-after', status: 502, path: '^/v1/media/folders$' });
		const lost = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'create',
				name: 'Once',
				location: 'app',
				app: APP,
			},
			credentials: credential(),
		});
		expect(lost.error?.description).toMatch(/may already have been processed/);
		expect(apiRequests(sandbox(), /^\/v1\/media\/folders$/)).toHaveLength(1);
		expect(folders().map((folder) => folder.name)).toEqual(['Once']);
	});
});

describe('Media Folder → Get Many', () => {
	it("lists an app's top folders, or a folder's subfolders", async () => {
		const reports = await makeFolder(sandbox(), 'Reports');
		await makeFolder(sandbox(), 'Logos');
		const year = await makeFolder(sandbox(), '2026', { parentId: reports.id, organizationId: 1 });
		const top = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'getMany',
				location: 'app',
				app: APP,
				returnAll: true,
			},
			credentials: credential(),
		});
		expect(top.json.map((folder) => folder.name)).toEqual(['Reports', 'Logos']);
		const inside = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'getMany',
				location: 'folder',
				folderId: String(reports.id),
				organization: ORG,
				returnAll: true,
			},
			credentials: credential(),
		});
		expect(inside.json).toEqual([expect.objectContaining({ id: year.id, parentId: reports.id })]);
	});
});

describe('Media Folder → Delete', () => {
	it('deletes the folder with its subfolders and their files; Continue On Fail reports a bad ID', async () => {
		const reports = await makeFolder(sandbox(), 'Reports');
		const year = await makeFolder(sandbox(), '2026', { parentId: reports.id, organizationId: 1 });
		const file = await uploadFile(sandbox(), `folderId=${year.id}`, 'r.png', PHOTO);
		const kept = await makeFolder(sandbox(), 'Kept');
		const result = await runNode({
			parameters: { resource: 'mediaFolder', operation: 'delete', folderId: '={{ $json.id }}' },
			input: [{ json: { id: reports.id } }, { json: { id: 'Reports' } }],
			credentials: credential(),
			continueOnFail: true,
		});
		expect(result.json).toEqual([
			{ deleted: true, id: reports.id },
			{ error: 'Folder ID: "Reports" is not an id', description: expect.any(String) },
		]);
		const liveFolders = folders().filter((folder) => !folder.deletedAt);
		expect(liveFolders.map((folder) => folder.id)).toEqual([kept.id]);
		expect(sandbox().state.media.get(file.id).deletedAt).not.toBeNull();
		expect(apiRequests(sandbox(), /^\/v1\/media\/folders\//)).toHaveLength(1);
	});
});
