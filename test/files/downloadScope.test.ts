import {
	apiRequests,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
	type SandboxRequest,
} from '../harness';
import {
	contentsRequests,
	getWithFiles,
	PHOTO,
	plantedEntry,
	privatePhotoEntry,
	STAFF,
} from './fileFixtures';

// What Download Files reads with the token: only the API's contents route (the route that serves a
// file's bytes), below the credential's base URL. Anyone who can write a file column (an app's form
// user) could otherwise make the workflow read API data with its token: the token holder's user
// record, the app's data sources, an organization's tokens.
const sandbox = useSandbox();

const bytesOf = (binary: { data: string }) => Buffer.from(binary.data, 'base64');
const NOT_CONTENTS = "it is an address of the Fliplet API other than a file's contents";

/** An entry whose columns hold the given URLs, each with a MediaFileId sibling. */
async function entryWithUrls(urls: Record<string, string>) {
	const data: Record<string, unknown> = { Name: 'Planted' };
	for (const [column, url] of Object.entries(urls)) {
		data[column] = url;
		data[`${column}MediaFileId`] = 1;
	}
	return await plantedEntry(sandbox(), data);
}

/** A private file of app 11 (readable by the app token) and its contents URL on the API host. */
async function privatePhoto() {
	const entry = await privatePhotoEntry(sandbox());
	return { id: entry.data.PhotoMediaFileId as number, url: entry.data.Photo as string };
}

const sentSince = (start: number): SandboxRequest[] => sandbox().requests.slice(start);

describe('Download Files reads only the contents route with the token', () => {
	it('with the base URL at the root: other API addresses in file columns are refused per file, never fetched', async () => {
		const photo = await privatePhoto();
		const api = sandbox().url;
		const entry = await entryWithUrls({
			Photo: photo.url,
			User: `${api}/v1/user`,
			Sources: `${api}/v1/data-sources?appId=11`,
			Tokens: `${api}/v1/organizations/1/tokens`,
			Metadata: `${api}/v1/media/files/${photo.id}`,
		});
		const start = sandbox().requests.length;

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Photo']);
		expect(bytesOf(item.binary!.Photo)).toEqual(PHOTO);
		const report = item.json.fileDownloads as Array<Record<string, unknown>>;
		expect(report.map((line) => [line.column, line.status])).toEqual([
			['Photo', 'downloaded'],
			['User', 'skipped'],
			['Sources', 'skipped'],
			['Tokens', 'skipped'],
			['Metadata', 'skipped'],
		]);
		for (const line of report.slice(1)) {
			expect(line.reason).toBe(
				`${NOT_CONTENTS} (${api}/v1/media/files/<id>/contents): only those are read with the token`,
			);
		}
		// The run read the entry and the one file; nothing else went to the API.
		expect(sentSince(start).map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /v1/data-sources/${STAFF}/data/${entry.id}`,
			`GET /v1/media/files/${photo.id}/contents/lamp.png`,
		]);
		expect(contentsRequests(sandbox()).at(-1)!.headers['auth-token']).toBe(TOKENS.app);
	});

	it("a contents URL whose name climbs (..%2F) reads the file's contents under its cleaned name, nothing else", async () => {
		const photo = await privatePhoto();
		const climb = `${sandbox().url}/v1/media/files/${photo.id}/contents/..%2F..%2F..%2Fuser`;
		const entry = await entryWithUrls({ Photo: climb });
		const start = sandbox().requests.length;
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(bytesOf(result.items[0].binary!.Photo)).toEqual(PHOTO);
		expect(result.items[0].binary!.Photo.fileName).toBe('user');
		expect(sentSince(start).map((request) => request.path)).toEqual([
			`/v1/data-sources/${STAFF}/data/${entry.id}`,
			`/v1/media/files/${photo.id}/contents/user`,
		]);
	});

	it('with a base URL that has a path: only the contents route below that path gets the token', async () => {
		const photo = await privatePhoto();
		const base = `${sandbox().url}/__tag/proxy`;
		const entry = await entryWithUrls({
			Photo: `${base}/v1/media/files/${photo.id}/contents/lamp.png`,
			Bare: photo.url,
			Elsewhere: `${sandbox().url}/__tag/other/v1/media/files/${photo.id}/contents/lamp.png`,
			User: `${base}/v1/user`,
		});
		const start = sandbox().requests.length;

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: {
				flipletApi: { ...sandboxCredential(sandbox()).flipletApi, baseUrl: `${base}/` },
			},
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(bytesOf(item.binary!.Photo)).toEqual(PHOTO);
		expect(item.json.fileDownloads).toEqual([
			expect.objectContaining({ column: 'Photo', status: 'downloaded' }),
			...['Bare', 'Elsewhere', 'User'].map((column) =>
				expect.objectContaining({
					column,
					status: 'skipped',
					reason: `${NOT_CONTENTS} (${base}/v1/media/files/<id>/contents): only those are read with the token`,
				}),
			),
		]);
		const sent = sentSince(start);
		expect(sent.map((request) => [request.tag, request.method, request.path])).toEqual([
			['proxy', 'GET', `/v1/data-sources/${STAFF}/data/${entry.id}`],
			['proxy', 'GET', `/v1/media/files/${photo.id}/contents/lamp.png`],
		]);
		expect(sent[1].headers['auth-token']).toBe(TOKENS.app);
	});

	it("a contents URL on the API's file host (cdn.api) is read from the API host, the token in the header only", async () => {
		const photo = await privatePhoto();
		const onFileHost = photo.url.replace(sandbox().url, sandbox().cdnUrl);
		// The file host serves it with a token in the URL, as the file manager reads it; without one,
		// the platform refuses it: fetched as a public file, this URL fails with 401.
		const bare = await fetch(onFileHost);
		expect(bare.status).toBe(401);
		expect(await bare.json()).toMatchObject({ error: 'file.access' });
		expect((await fetch(`${onFileHost}?auth_token=${TOKENS.app}`)).status).toBe(200);
		const entry = await entryWithUrls({
			Photo: onFileHost,
			Thumbnail: `${onFileHost}?auth_token=eu--someone-elses-token&auth_token[]=eu--theirs&size=small`,
		});
		sandbox().cdnRequests.length = 0;

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(bytesOf(item.binary!.Photo)).toEqual(PHOTO);
		expect(bytesOf(item.binary!.Thumbnail)).toEqual(PHOTO);
		expect(sandbox().cdnRequests).toEqual([]);
		const reads = apiRequests(sandbox(), /\/contents\//).slice(-2);
		expect(reads.map((request) => [request.path, request.query])).toEqual([
			[`/v1/media/files/${photo.id}/contents/lamp.png`, {}],
			[`/v1/media/files/${photo.id}/contents/lamp.png`, { size: 'small' }],
		]);
		for (const request of reads) expect(request.headers['auth-token']).toBe(TOKENS.app);
	});
});
