import { sleep } from 'n8n-workflow';

import {
	apiRequests,
	arrivalOf,
	callSandbox,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import {
	contentsRequests,
	encryptFiles,
	formEntry,
	getWithFiles,
	PHOTO,
	readableByAnotherToken,
	readableByAppToken,
	RECEIPT,
	setAppFileRules,
	startOtherHost,
	STAFF,
} from './fileFixtures';

// Entry → Get with Download Files: each file of the entry becomes a binary property; only the
// platform's hosts are fetched, and the token goes only to the API host.
const sandbox = useSandbox();
let other: Awaited<ReturnType<typeof startOtherHost>>;
beforeAll(async () => {
	other = await startOtherHost();
});
afterAll(async () => {
	await other.stop();
});
afterEach(() => {
	expect(other.received).toEqual([]);
});

const bytesOf = (binary: { data: string }) => Buffer.from(binary.data, 'base64');

describe('Entry → Get with Download Files', () => {
	it("downloads a form's public files from the CDN, without the token, into binary properties named after their columns", async () => {
		const entry = await formEntry(sandbox(), { Name: 'Chair' }, [
			{ column: 'Photo', name: 'chair.png', type: 'image/png', bytes: PHOTO },
			{ column: 'Receipt', name: 'a.pdf', type: 'application/pdf', bytes: RECEIPT, list: true },
			{ column: 'Receipt', name: 'b.pdf', type: 'application/pdf', bytes: PHOTO, list: true },
		]);
		expect(entry.data.Photo.startsWith(`${sandbox().cdnUrl}/apps/11/`)).toBe(true);

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['Photo', 'Receipt_0', 'Receipt_1']);
		expect(bytesOf(item.binary!.Photo)).toEqual(PHOTO);
		expect(item.binary!.Photo.mimeType).toBe('image/png');
		expect(item.binary!.Photo.fileName).toMatch(/\.png$/);
		expect(bytesOf(item.binary!.Receipt_0)).toEqual(RECEIPT);
		expect(bytesOf(item.binary!.Receipt_1)).toEqual(PHOTO);
		// The entry is output as stored, with what became of each file.
		expect(item.json.data).toEqual(entry.data);
		expect(item.json.fileDownloads).toEqual([
			{ column: 'Photo', url: entry.data.Photo, status: 'downloaded', binaryProperty: 'Photo' },
			{
				column: 'Receipt',
				index: 0,
				url: entry.data.Receipt[0],
				status: 'downloaded',
				binaryProperty: 'Receipt_0',
			},
			{
				column: 'Receipt',
				index: 1,
				url: entry.data.Receipt[1],
				status: 'downloaded',
				binaryProperty: 'Receipt_1',
			},
		]);
		expect(sandbox().cdnRequests).toHaveLength(3);
		for (const request of sandbox().cdnRequests) {
			expect(request.headers['auth-token']).toBeUndefined();
			expect(JSON.stringify(request)).not.toContain(TOKENS.app);
		}
		expect(contentsRequests(sandbox())).toEqual([]);
	});

	it('downloads only the File Columns named, and reports a named column without a file', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Desk' }, [
			{ column: 'Photo', name: 'desk.png', type: 'image/png', bytes: PHOTO },
			{ column: 'Receipt', name: 'r.pdf', type: 'application/pdf', bytes: RECEIPT },
		]);
		const result = await runNode({
			parameters: getWithFiles(entry.id, { fileColumns: 'Receipt, Signature' }),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Receipt']);
		expect(item.json.fileDownloads).toEqual([
			{
				column: 'Receipt',
				url: entry.data.Receipt,
				status: 'downloaded',
				binaryProperty: 'Receipt',
			},
			{ column: 'Signature', status: 'skipped', reason: 'the column holds no file URL' },
		]);
		expect(sandbox().cdnRequests).toHaveLength(1);
	});

	it('downloads a private file through the API host with the token its rules let read it', async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const entry = await formEntry(sandbox(), { Name: 'Lamp' }, [
			{ column: 'Photo', name: 'lamp.png', type: 'image/png', bytes: PHOTO },
		]);
		expect(entry.data.Photo).toBe(
			`${sandbox().url}/v1/media/files/${entry.data.PhotoMediaFileId}/contents/lamp.png`,
		);
		// Without a token the platform refuses it.
		const refused = await fetch(entry.data.Photo);
		expect(refused.status).toBe(401);
		expect(await refused.json()).toMatchObject({ error: 'file.access' });

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(bytesOf(result.items[0].binary!.Photo)).toEqual(PHOTO);
		expect(result.items[0].binary!.Photo.fileName).toBe('lamp.png');
		const download = contentsRequests(sandbox()).at(-1)!;
		expect(download.headers['auth-token']).toBe(TOKENS.app);
		expect(download.status).toBe(200);
		expect(sandbox().cdnRequests).toEqual([]);
	});

	it("a private file the token can't read is the item's error; Continue On Fail keeps the other items", async () => {
		await setAppFileRules(sandbox(), readableByAnotherToken);
		const locked = await formEntry(sandbox(), { Name: 'Safe' }, [
			{ column: 'Photo', name: 'safe.png', type: 'image/png', bytes: PHOTO },
		]);
		const plain = await formEntry(sandbox(), { Name: 'No files' }, []);
		const parameters = { ...getWithFiles(0), entryId: '={{ $json.entryId }}' };
		const input = [{ json: { entryId: locked.id } }, { json: { entryId: plain.id } }];

		const stopped = await runNode({
			parameters,
			input,
			credentials: sandboxCredential(sandbox()),
		});
		expect(stopped.error?.message).toMatch(/^Column "Photo": You do not have permission/);
		expect(stopped.error?.description).toMatch(/access rules/);

		const kept = await runNode({
			parameters,
			input,
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(kept.error).toBeUndefined();
		expect(kept.json[0]).toEqual({
			error: expect.stringMatching(/permission to access this file/),
			description: expect.stringMatching(/access rules/),
		});
		expect(kept.items[1].json).toMatchObject({ id: plain.id, fileDownloads: [] });
		expect(kept.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const refusals = contentsRequests(sandbox()).map((request) => request.status);
		expect(refusals).toEqual([401, 401]);
	});

	it('downloads an encrypted file through the API host: its CDN path serves nothing', async () => {
		await encryptFiles(sandbox());
		const entry = await formEntry(sandbox(), { Name: 'Contract' }, [
			{ column: 'Scan', name: 'contract.pdf', type: 'application/pdf', bytes: RECEIPT },
		]);
		const file = sandbox().state.media.get(entry.data.ScanMediaFileId);
		expect(file.isEncrypted).toBe(true);
		expect(entry.data.Scan).toMatch(/\/v1\/media\/files\/\d+\/contents\/contract\.pdf$/);
		expect((await fetch(`${sandbox().cdnUrl}/${file.path}`)).status).toBe(403);

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(bytesOf(result.items[0].binary!.Scan)).toEqual(RECEIPT);
		expect(contentsRequests(sandbox())[0].headers['auth-token']).toBe(TOKENS.app);
	});

	it('leaves a URL to another host as it is and reports it: nothing is sent there, with or without the token', async () => {
		const { body: entry } = await callSandbox(sandbox(), 'PUT', `/v1/data-sources/${STAFF}/data`, {
			Name: 'Elsewhere',
			Photo: `${other.url}/photo.png`,
			PhotoMediaFileId: 1,
			Receipt: `${sandbox().cdnUrl.replace('http://', 'http://user:secret@')}/receipt.pdf`,
			ReceiptMediaFileId: 2,
			Scan: 'apps/11/scan.pdf',
			ScanMediaFileId: 3,
		});
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary).toBeUndefined();
		expect(result.items[0].json.data).toEqual(entry.data);
		expect(result.items[0].json.fileDownloads).toEqual([
			{
				column: 'Photo',
				url: `${other.url}/photo.png`,
				status: 'skipped',
				reason: `${other.url} is neither the Fliplet API host nor one of its file hosts`,
			},
			{
				column: 'Receipt',
				url: entry.data.Receipt,
				status: 'skipped',
				reason: 'it carries a user name or password',
			},
			{
				column: 'Scan',
				url: 'apps/11/scan.pdf',
				status: 'skipped',
				reason: 'it is not an absolute URL',
			},
		]);
		expect(sandbox().cdnRequests).toEqual([]);
		expect(apiRequests(sandbox(), /^\/v1\/media/)).toEqual([]);
	});

	it('follows the API host redirecting a public file to the CDN, with the token only on the API host', async () => {
		setSandboxReadings(sandbox(), { mediaContents: 'redirect' });
		const entry = await formEntry(sandbox(), { Name: 'Vase' }, [
			{ column: 'Photo', name: 'vase.png', type: 'image/png', bytes: PHOTO },
		]);
		// The entry names the file by the API's contents route, as an API-hosted URL.
		const apiUrl = `${sandbox().url}/v1/media/files/${entry.data.PhotoMediaFileId}/contents/vase.png`;
		await callSandbox(sandbox(), 'PUT', `/v1/data-sources/${STAFF}/data/${entry.id}`, {
			Photo: apiUrl,
		});

		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(bytesOf(result.items[0].binary!.Photo)).toEqual(PHOTO);
		const [hop] = contentsRequests(sandbox());
		expect([hop.status, hop.headers['auth-token']]).toEqual([302, TOKENS.app]);
		expect(sandbox().cdnRequests).toHaveLength(1);
		expect(sandbox().cdnRequests[0].headers['auth-token']).toBeUndefined();
	});

	it('does not follow a redirect to another host', async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const entry = await formEntry(sandbox(), { Name: 'Moved' }, [
			{ column: 'Photo', name: 'moved.png', type: 'image/png', bytes: PHOTO },
		]);
		sandbox().injectFault({
			mode: 'status-before',
			status: 302,
			headers: { Location: `${other.url}/stolen.png` },
			path: '^/v1/media/files/',
		});
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe(
			`Column "Photo": The download was redirected to ${other.url}; the redirect was not followed`,
		);
	});

	it('reports a file over Max File Size without keeping its bytes', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Big' }, [
			{ column: 'Photo', name: 'big.png', type: 'image/png', bytes: PHOTO },
			{ column: 'Note', name: 'n.txt', type: 'text/plain', bytes: Buffer.from('hi') },
		]);
		const limit = 4 / (1024 * 1024);
		const result = await runNode({
			parameters: getWithFiles(entry.id, { maxFileSizeMb: limit }),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].binary ?? {})).toEqual(['Note']);
		expect(result.items[0].json.fileDownloads).toContainEqual({
			column: 'Photo',
			url: entry.data.Photo,
			status: 'skipped',
			reason: `The file is larger than the limit of 4 bytes (${PHOTO.length} bytes)`,
		});
	});

	it('downloads again an answer cut mid-way', async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const big = Buffer.alloc(256 * 1024, 7);
		const entry = await formEntry(sandbox(), { Name: 'Cut' }, [
			{ column: 'Photo', name: 'cut.png', type: 'image/png', bytes: big },
		]);
		sandbox().injectFault({ mode: 'cut-after', path: '^/v1/media/files/', cutAtBytes: 1000 });
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(bytesOf(result.items[0].binary!.Photo).equals(big)).toBe(true);
		expect(contentsRequests(sandbox())).toHaveLength(2);
	});

	it('a stopped execution ends a download mid-way at once, and does not start it again', async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const entry = await formEntry(sandbox(), { Name: 'Slow' }, [
			{ column: 'Photo', name: 'slow.png', type: 'image/png', bytes: Buffer.alloc(64 * 1024, 1) },
		]);
		sandbox().injectFault({
			mode: 'drip-after',
			path: '^/v1/media/files/',
			dripBytes: 1024,
			dripMs: 200,
		});
		const arrived = arrivalOf(sandbox(), /\/contents\//);
		const result = await runNode({
			parameters: getWithFiles(entry.id),
			credentials: sandboxCredential(sandbox()),
			whileRunning: (stop) =>
				void arrived.then(async (request) => {
					// The answer has started: its bytes are on their way when the run is stopped.
					while (request.status === undefined) await sleep(1);
					stop();
				}),
		});
		expect(result.status).toBe('canceled');
		const requests = contentsRequests(sandbox());
		expect(requests).toHaveLength(1);
		await requests[0].closed;
		expect(requests[0].abandoned).toBe(true);
	});

	it('puts the report beside the columns with Output: Columns Only, never over a column', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Rug', fileDownloads: 'a column' }, [
			{ column: 'Photo', name: 'rug.png', type: 'image/png', bytes: PHOTO },
		]);
		const result = await runNode({
			parameters: getWithFiles(entry.id, { entryOutput: 'columns' }),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json[0]).toEqual({
			...entry.data,
			fileDownloads: 'a column',
			fileDownloads_: [expect.objectContaining({ column: 'Photo', status: 'downloaded' })],
		});
	});
});
