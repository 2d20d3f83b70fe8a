import {
	callSandbox,
	MEDIA_LIST_READINGS,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import { PHOTO } from './fileFixtures';
import { APP, makeFolder, ORG, uploadFile } from './mediaFixtures';

// Get Many of a media location lists that location's items only, whether `GET v1/media` answers
// the location alone or everything below its root too (Studio's file manager filters the list on
// its side, so the platform may do the latter): an organization's list never hands an app's
// folders to a Media Folder → Delete downstream.
const sandbox = useSandbox();

/** A library with something at every level: app 11, app 21 and organization 1. */
async function library() {
	const appFile = await uploadFile(sandbox(), 'appId=11', 'app-root.png', PHOTO);
	const appFolder = await makeFolder(sandbox(), 'Inspections');
	const inFolder = await uploadFile(sandbox(), `folderId=${appFolder.id}`, 'inside.png', PHOTO);
	const subfolder = await makeFolder(sandbox(), '2026', { parentId: appFolder.id });
	await uploadFile(sandbox(), `folderId=${subfolder.id}`, 'deep.png', PHOTO);
	const otherApp = await uploadFile(sandbox(), 'appId=21', 'field.png', PHOTO);
	await makeFolder(sandbox(), 'Field folder', { appId: 21 });
	const orgFile = await uploadFile(sandbox(), 'organizationId=1', 'org-root.png', PHOTO);
	const orgFolder = await makeFolder(sandbox(), 'Policies', { organizationId: 1 });
	const inOrgFolder = await uploadFile(sandbox(), `folderId=${orgFolder.id}`, 'policy.png', PHOTO);
	return { appFile, appFolder, inFolder, subfolder, otherApp, orgFile, orgFolder, inOrgFolder };
}

const getMany = (resource: 'mediaFile' | 'mediaFolder', location: Record<string, unknown>) =>
	runNode({
		parameters: { resource, operation: 'getMany', returnAll: true, ...location },
		credentials: sandboxCredential(sandbox(), TOKENS.org),
	});

const names = async (resource: 'mediaFile' | 'mediaFolder', location: Record<string, unknown>) => {
	const result = await getMany(resource, location);
	expect(result.error).toBeUndefined();
	return result.json.map((item) => item.name).sort();
};

describe.each(MEDIA_LIST_READINGS)('Get Many ($mediaList, $mediaFolderParent)', (reading) => {
	beforeEach(() => setSandboxReadings(sandbox(), reading));

	it("lists only the location's own files and folders", async () => {
		const made = await library();
		const app = { location: 'app', app: APP };
		const organization = { location: 'organization', organization: ORG };
		const folder = (id: number) => ({
			location: 'folder',
			folderId: String(id),
			organization: ORG,
		});

		expect(await names('mediaFile', app)).toEqual(['app-root.png']);
		expect(await names('mediaFolder', app)).toEqual(['Inspections']);
		expect(await names('mediaFile', organization)).toEqual(['org-root.png']);
		expect(await names('mediaFolder', organization)).toEqual(['Policies']);
		expect(await names('mediaFile', folder(made.appFolder.id))).toEqual(['inside.png']);
		expect(await names('mediaFolder', folder(made.appFolder.id))).toEqual(['2026']);
		expect(await names('mediaFile', folder(made.orgFolder.id))).toEqual(['policy.png']);

		// What the API answered for the organization: under `belowRoot`, apps' files and folders and
		// what is inside folders too; the node kept the root's own.
		const answer = await callSandbox(
			sandbox(),
			'GET',
			'/v1/media?organizationId=1',
			undefined,
			TOKENS.org,
		);
		const listed = answer.body.files.map((file: { name: string }) => file.name).sort();
		expect(listed).toEqual(
			reading.mediaList === 'belowRoot'
				? ['app-root.png', 'deep.png', 'field.png', 'inside.png', 'org-root.png', 'policy.png']
				: ['org-root.png'],
		);
	});

	it("Limit counts only the location's items", async () => {
		await library();
		const result = await runNode({
			parameters: {
				resource: 'mediaFolder',
				operation: 'getMany',
				location: 'organization',
				organization: ORG,
				returnAll: false,
				limit: 1,
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		expect(result.json.map((folder) => folder.name)).toEqual(['Policies']);
	});
});
