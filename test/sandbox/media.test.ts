import { callSandbox, setSandboxReadings, TOKENS, useSandbox } from '../harness';

// The sandbox's media library, checked over plain HTTP against the platform's docs
// (Fliplet/fliplet-cli: docs/REST-API/fliplet-media.md, docs/File-security.md,
// docs/API/fliplet-media.md, docs/API/datasources/file-attachments.md).
const sandbox = useSandbox();
const BYTES = Buffer.from('a photo of a damaged chair');

async function upload(where: string, name = 'chair.png', token = TOKENS.org) {
	const form = new FormData();
	form.append('name[0]', name);
	form.append('files[0]', new Blob([BYTES], { type: 'image/png' }), name);
	return await callSandbox(sandbox(), 'POST', `/v1/media/files?${where}`, form, token);
}

const putRules = (path: string, accessRules: unknown, token = TOKENS.studio) =>
	callSandbox(sandbox(), 'PUT', `/v1/media/${path}/accessRules`, { accessRules }, token);

describe('sandbox contract: media files', () => {
	it('uploads answer 201 {files}; a public file is served on the CDN-like host and the contents route, without a token', async () => {
		const answer = await upload('appId=11');
		expect(answer.status).toBe(201);
		const [file] = answer.body.files;
		expect(file).toMatchObject({
			name: 'chair.png',
			contentType: 'image/png',
			appId: 11,
			organizationId: 1,
			mediaFolderId: null,
			isEncrypted: false,
			metadata: { size: BYTES.length, checksum: expect.stringMatching(/^[0-9a-f]{32}$/) },
		});
		expect(file.url).toBe(`${sandbox().cdnUrl}/${file.path}`);
		expect(file.path).toMatch(/^apps\/11\/[0-9a-f]{24}-\d+\.png$/);
		const cdn = await fetch(file.url);
		expect([cdn.status, cdn.headers.get('content-type')]).toEqual([200, 'image/png']);
		expect(Buffer.from(await cdn.arrayBuffer()).equals(BYTES)).toBe(true);
		const contents = await fetch(`${sandbox().url}/v1/media/files/${file.id}/contents`);
		expect(contents.status).toBe(200);
		expect(Buffer.from(await contents.arrayBuffer()).equals(BYTES)).toBe(true);
	});

	it('a private file: its URL is the contents route, 401 {"error": "file.access"} without a token, read with one its rules name (header or ?auth_token=)', async () => {
		expect((await putRules('apps/11', [{ type: ['read'], allow: { tokens: [102] } }])).status).toBe(
			200,
		);
		const [file] = (await upload('appId=11', 'plan.pdf')).body.files;
		expect(file.url).toBe(`${sandbox().url}/v1/media/files/${file.id}/contents/plan.pdf`);
		const anonymous = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media/files/${file.id}/contents`,
			undefined,
			null,
		);
		expect(anonymous).toEqual({
			status: 401,
			body: { error: 'file.access', message: 'You do not have permission to access this file' },
		});
		const other = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media/files/${file.id}/contents`,
			undefined,
			TOKENS.otherApp,
		);
		expect(other.status).toBe(401);
		expect((await fetch(`${file.url}?auth_token=${TOKENS.app}`)).status).toBe(200);
		const withHeader = await fetch(file.url, { headers: { 'Auth-token': TOKENS.app } });
		expect(withHeader.status).toBe(200);
		expect((await fetch(`${sandbox().cdnUrl}/${file.path}`)).status).toBe(403);
	});

	it('an encrypted file (its organization encrypts uploads) is private whatever its rules', async () => {
		await callSandbox(
			sandbox(),
			'POST',
			'/__sandbox/encrypted-files',
			{ organizationId: 1, encrypted: true },
			null,
		);
		const [file] = (await upload('appId=11')).body.files;
		expect(file.isEncrypted).toBe(true);
		expect(file.url).toMatch(/\/v1\/media\/files\/\d+\/contents\/chair\.png$/);
		expect((await fetch(file.url)).status).toBe(401);
		expect((await fetch(file.url, { headers: { 'Auth-token': TOKENS.app } })).status).toBe(200);
	});

	it("rules are read top to bottom: the first that matches grants, a failed `stop` denies, the file's own replace inherited ones", async () => {
		const [file] = (await upload('appId=11')).body.files;
		const read = (token: string) =>
			fetch(`${sandbox().url}/v1/media/files/${file.id}/contents`, {
				headers: { 'Auth-token': token },
			});
		await putRules(`files/${file.id}`, [
			{ type: ['read'], allow: { tokens: [103] }, stop: true },
			{ type: ['read'], allow: 'all' },
		]);
		expect((await read(TOKENS.otherApp)).status).toBe(200);
		expect((await read(TOKENS.app)).status).toBe(401);
		expect((await read(TOKENS.org)).status).toBe(200);
		const rules = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media/files/${file.id}/accessRules`,
			undefined,
			TOKENS.studio,
		);
		expect(rules.body).toMatchObject({
			inheritedFrom: null,
			effectiveRules: rules.body.accessRules,
		});
		await putRules(`files/${file.id}`, null);
		const inherited = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media/files/${file.id}/accessRules`,
			undefined,
			TOKENS.studio,
		);
		expect(inherited.body).toMatchObject({
			accessRules: null,
			inheritedFrom: { type: 'app', appId: 11 },
		});
	});

	it('access rules need a Studio user token, at most 20 rules, and create only on folders', async () => {
		const [file] = (await upload('appId=11')).body.files;
		expect((await putRules(`files/${file.id}`, [], TOKENS.org)).status).toBe(403);
		const many = Array.from({ length: 21 }, () => ({ type: ['read'], allow: 'all' }));
		expect((await putRules(`files/${file.id}`, many)).status).toBe(400);
		expect((await putRules(`files/${file.id}`, [{ type: ['create'], allow: 'all' }])).status).toBe(
			400,
		);
		expect(
			(await putRules(`files/${file.id}`, [{ type: ['read'], allow: 'everyone' }])).status,
		).toBe(400);
	});

	it("refuses what the platform's validator refuses (422), and uploads without a context (400)", async () => {
		expect((await upload('appId=11', 'tool.exe')).status).toBe(422);
		const form = new FormData();
		form.append('files[0]', new Blob([BYTES]), 'a.png');
		expect((await callSandbox(sandbox(), 'POST', '/v1/media/files', form, TOKENS.org)).status).toBe(
			400,
		);
	});

	it('an app token may not create files at its app root with the preset rules (logged-in users only)', async () => {
		const refused = await upload('appId=11', 'a.png', TOKENS.app);
		expect(refused.body).toEqual({
			error: 'file.access',
			message: 'You do not have permission to create files here',
		});
		await putRules('apps/11', [
			{ type: ['read'], allow: 'all' },
			{ type: ['create'], allow: { tokens: [102] } },
		]);
		expect((await upload('appId=11', 'a.png', TOKENS.app)).status).toBe(201);
	});

	it('a deleted file is gone from lists and routes', async () => {
		const [file] = (await upload('organizationId=1')).body.files;
		expect(
			(await callSandbox(sandbox(), 'DELETE', `/v1/media/files/${file.id}`, undefined, TOKENS.org))
				.status,
		).toBe(200);
		expect((await fetch(`${sandbox().url}/v1/media/files/${file.id}/contents`)).status).toBe(404);
		expect((await fetch(`${sandbox().cdnUrl}/${file.path}`)).status).toBe(404);
		const list = await callSandbox(
			sandbox(),
			'GET',
			'/v1/media?organizationId=1',
			undefined,
			TOKENS.org,
		);
		expect(list.body).toEqual({ folders: [], files: [] });
	});

	it('the CDN-like host ignores a token, serves HEAD, and answers as a bucket for unknown paths', async () => {
		const [file] = (await upload('appId=11')).body.files;
		const head = await fetch(file.url, { method: 'HEAD', headers: { 'Auth-token': TOKENS.app } });
		expect([head.status, head.headers.get('content-length')]).toEqual([200, String(BYTES.length)]);
		const missing = await fetch(`${sandbox().cdnUrl}/apps/11/nothing.png`);
		expect(missing.status).toBe(404);
		expect(await missing.text()).toMatch(/<Code>NoSuchKey<\/Code>/);
		expect(sandbox().cdnRequests.map((request) => [request.method, request.status])).toEqual([
			['HEAD', 200],
			['GET', 404],
		]);
	});
});

describe('sandbox contract: media folders and readings', () => {
	it('folders nest; GET v1/media lists the top level of an app or an organization, or a folder', async () => {
		const created = await callSandbox(
			sandbox(),
			'POST',
			'/v1/media/folders',
			{ name: 'Reports', appId: 11 },
			TOKENS.org,
		);
		expect(created.body).toMatchObject({
			name: 'Reports',
			appId: 11,
			parentId: null,
			organizationId: 1,
			deletedAt: null,
		});
		const child = await callSandbox(
			sandbox(),
			'POST',
			'/v1/media/folders',
			{ name: '2026', parentId: created.body.id, organizationId: 1 },
			TOKENS.org,
		);
		expect(child.body).toMatchObject({ parentId: created.body.id, appId: 11 });
		const app = await callSandbox(sandbox(), 'GET', '/v1/media?appId=11', undefined, TOKENS.app);
		expect(app.body.folders.map((folder: { name: string }) => folder.name)).toEqual(['Reports']);
		const inside = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media?folderId=${created.body.id}`,
			undefined,
			TOKENS.org,
		);
		expect(inside.body.folders.map((folder: { id: number }) => folder.id)).toEqual([child.body.id]);
		expect(
			(await callSandbox(sandbox(), 'POST', '/v1/media/folders', { appId: 11 }, TOKENS.org)).status,
		).toBe(400);
	});

	it('reading withOrganization: a folder is listed only with its organization', async () => {
		setSandboxReadings(sandbox(), { mediaFolderList: 'withOrganization' });
		const folder = await callSandbox(
			sandbox(),
			'POST',
			'/v1/media/folders',
			{ name: 'F', organizationId: 1 },
			TOKENS.org,
		);
		const alone = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media?folderId=${folder.body.id}`,
			undefined,
			TOKENS.org,
		);
		expect(alone.status).toBe(400);
		const both = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media?folderId=${folder.body.id}&organizationId=1`,
			undefined,
			TOKENS.org,
		);
		expect(both.status).toBe(200);
	});

	it('reading redirect: the contents route sends a public file to its CDN address, unless a transform is asked for', async () => {
		setSandboxReadings(sandbox(), { mediaContents: 'redirect' });
		const [file] = (await upload('appId=11')).body.files;
		const moved = await fetch(`${sandbox().url}/v1/media/files/${file.id}/contents`, {
			redirect: 'manual',
		});
		expect([moved.status, moved.headers.get('location')]).toEqual([302, file.url]);
		const resized = await fetch(
			`${sandbox().url}/v1/media/files/${file.id}/contents?size=small&format=webp`,
		);
		expect([resized.status, resized.headers.get('x-sandbox-transform')]).toEqual([
			200,
			'size=small&format=webp',
		]);
		expect(
			(await fetch(`${sandbox().url}/v1/media/files/${file.id}/contents?size=huge`)).status,
		).toBe(400);
	});
});

describe('sandbox contract: what the media list holds, image sizes, the API file host', () => {
	it("reading belowRoot: an app's or an organization's list also holds what is below its root; a folder's holds its own", async () => {
		const folder = await callSandbox(
			sandbox(),
			'POST',
			'/v1/media/folders',
			{ name: 'F', appId: 11 },
			TOKENS.org,
		);
		await callSandbox(
			sandbox(),
			'POST',
			'/v1/media/folders',
			{ name: 'G', parentId: folder.body.id },
			TOKENS.org,
		);
		await upload('appId=11', 'root.png');
		await upload(`folderId=${folder.body.id}`, 'inside.png');
		await upload('organizationId=1', 'org.png');
		const names = async (query: string) => {
			const { body } = await callSandbox(
				sandbox(),
				'GET',
				`/v1/media?${query}`,
				undefined,
				TOKENS.org,
			);
			return [...body.folders, ...body.files].map((item: { name: string }) => item.name).sort();
		};
		expect(await names('appId=11')).toEqual(['F', 'root.png']);
		expect(await names('organizationId=1')).toEqual(['org.png']);
		setSandboxReadings(sandbox(), { mediaList: 'belowRoot' });
		expect(await names('appId=11')).toEqual(['F', 'G', 'inside.png', 'root.png']);
		expect(await names('organizationId=1')).toEqual([
			'F',
			'G',
			'inside.png',
			'org.png',
			'root.png',
		]);
		expect(await names(`folderId=${folder.body.id}`)).toEqual(['G', 'inside.png']);
	});

	it('reading mediaFolderParent: a folder names its parent parentId, or parentFolderId instead', async () => {
		const make = (body: object) =>
			callSandbox(sandbox(), 'POST', '/v1/media/folders', body, TOKENS.org);
		const top = await make({ name: 'F', appId: 11 });
		expect((await make({ name: 'G', parentId: top.body.id })).body).toMatchObject({
			parentId: top.body.id,
		});
		setSandboxReadings(sandbox(), { mediaFolderParent: 'parentFolderId' });
		const made = (await make({ name: 'H', parentId: top.body.id })).body;
		expect(made.parentFolderId).toBe(top.body.id);
		expect(made).not.toHaveProperty('parentId');
		const { body } = await callSandbox(
			sandbox(),
			'GET',
			`/v1/media?folderId=${top.body.id}`,
			undefined,
			TOKENS.org,
		);
		expect(body.folders.map((folder: Record<string, unknown>) => folder.name).sort()).toEqual([
			'G',
			'H',
		]);
		for (const folder of body.folders) {
			expect(folder.parentFolderId).toBe(top.body.id);
			expect(folder).not.toHaveProperty('parentId');
		}
	});

	it('reading contentsImageSize: an image read without a size is played at xlarge (the header says so), or as stored', async () => {
		const [image] = (await upload('appId=11')).body.files;
		const form = new FormData();
		form.append('name[0]', 'a.pdf');
		form.append('files[0]', new Blob([BYTES], { type: 'application/pdf' }), 'a.pdf');
		const pdf = (await callSandbox(sandbox(), 'POST', '/v1/media/files?appId=11', form, TOKENS.org))
			.body.files[0];
		const played = async (id: number, query = '') => {
			const answer = await fetch(`${sandbox().url}/v1/media/files/${id}/contents${query}`);
			expect(Buffer.from(await answer.arrayBuffer()).equals(BYTES)).toBe(true);
			return answer.headers.get('x-sandbox-transform');
		};
		expect(await played(image.id)).toBe('size=xlarge');
		expect(await played(image.id, '?format=webp')).toBe('size=xlarge&format=webp');
		expect(await played(image.id, '?size=small')).toBe('size=small');
		expect(await played(pdf.id)).toBeNull();
		setSandboxReadings(sandbox(), { contentsImageSize: 'original' });
		expect(await played(image.id)).toBeNull();
	});

	it("the CDN-like host plays the API's file host: the contents route with ?auth_token=, under the file's rules", async () => {
		await putRules('apps/11', [{ type: ['read'], allow: { tokens: [102] } }]);
		const [file] = (await upload('appId=11', 'private.png')).body.files;
		const onFileHost = `${sandbox().cdnUrl}/v1/media/files/${file.id}/contents/private.png`;
		const bare = await fetch(onFileHost);
		expect([bare.status, await bare.json()]).toEqual([
			401,
			{ message: 'You do not have permission to access this file', error: 'file.access' },
		]);
		// A token in a header is not read there, nor one its rules do not name.
		expect((await fetch(onFileHost, { headers: { 'Auth-token': TOKENS.app } })).status).toBe(401);
		expect((await fetch(`${onFileHost}?auth_token=${TOKENS.otherApp}`)).status).toBe(401);
		const read = await fetch(`${onFileHost}?auth_token=${TOKENS.app}&size=small`);
		expect([read.status, read.headers.get('x-sandbox-transform')]).toEqual([200, 'size=small']);
		expect(Buffer.from(await read.arrayBuffer()).equals(BYTES)).toBe(true);
		expect((await fetch(`${sandbox().cdnUrl}/v1/media/files/999999/contents`)).status).toBe(404);
		expect(sandbox().cdnRequests.map((request) => request.status)).toEqual([
			401, 401, 401, 200, 404,
		]);
	});
});

describe('sandbox contract: entry uploads', () => {
	async function formEntry(
		parts: Array<[string, string | Blob, string?]>,
		path = '/v1/data-sources/100/data',
	) {
		const form = new FormData();
		for (const [name, value, fileName] of parts) {
			if (typeof value === 'string') form.append(name, value);
			else form.append(name, value, fileName);
		}
		return await callSandbox(sandbox(), 'PUT', path, form, TOKENS.app);
	}
	const blob = () => new Blob([BYTES], { type: 'image/png' });

	it('a list field (`Photo[]`) stores a list of URLs and ids; an update adds to it unless _flSchema says append: false', async () => {
		const inserted = await formEntry([
			['Name', 'Chair'],
			['Photo[]', blob(), 'a.png'],
			['Photo[]', blob(), 'b.png'],
		]);
		expect(inserted.body.data.Photo).toHaveLength(2);
		expect(inserted.body.data.PhotoMediaFileId).toHaveLength(2);
		const file = sandbox().state.media.get(inserted.body.data.PhotoMediaFileId[0]);
		expect(file.dataSourceEntryId).toBe(inserted.body.id);
		const path = `/v1/data-sources/100/data/${inserted.body.id}`;
		const added = await formEntry([['Photo', blob(), 'c.png']], path);
		expect(added.body.data.Photo).toHaveLength(3);
		const replaced = await formEntry(
			[
				['_flSchema', JSON.stringify({ Photo: { append: false } })],
				['Photo', blob(), 'd.png'],
			],
			path,
		);
		expect(replaced.body.data.Photo).toEqual(expect.stringMatching(/\.png$/));
		expect(replaced.body.data).not.toHaveProperty('_flSchema');
		expect(replaced.body.data.Name).toBe('Chair');
	});
});
