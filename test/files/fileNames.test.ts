/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	cleanFileName,
	MAX_FILE_NAME_BYTES,
	unsafeUploadName,
} from '../../nodes/Fliplet/helpers/fileNames';
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import {
	getWithFiles,
	PHOTO,
	plantedEntry,
	readableByAppToken,
	setAppFileRules,
	STAFF,
} from './fileFixtures';
import { uploadFile } from './mediaFixtures';

// One cleaner for every name a file gets in n8n (a stored name, Content-Disposition, a URL): no
// path, no control or direction characters, at most 255 bytes with the extension kept; ordinary
// names unchanged. An upload refuses such a name rather than storing it.
const sandbox = useSandbox();

const LONG = `${'a'.repeat(296)}.pdf`;
const LONG_WIDE = `${'é'.repeat(200)}.pdf`;
/** Hostile names and what n8n gets for each. */
const HOSTILE: Array<[string, string]> = [
	['../../etc/passwd', 'passwd'],
	['..\\..\\evil.png', 'evil.png'],
	['evil\u0000.png', 'evil.png'],
	['report\r\nBcc: x.pdf', 'reportBcc: x.pdf'],
	// U+202E shows "invoice" + U+202E + "fdp.png" as "invoicegnp.pdf".
	['invoice\u202Efdp.png', 'invoicefdp.png'],
	[LONG, `${'a'.repeat(MAX_FILE_NAME_BYTES - 4)}.pdf`],
	[LONG_WIDE, `${'é'.repeat(125)}.pdf`],
	['Café ü.pdf', 'Café ü.pdf'],
];

describe('the file-name cleaner', () => {
	it.each(HOSTILE)('%j becomes %j', (raw, clean) => {
		expect(cleanFileName(raw)).toBe(clean);
		expect(Buffer.byteLength(clean)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
	});

	it.each([
		['', undefined],
		['..', undefined],
		['../', undefined],
		['/\u0000/.', undefined],
		// Only dots is a folder step: Windows drops a name's trailing dots and spaces.
		['...', undefined],
		['. .', undefined],
		['reports/.../', 'reports'],
		['...pdf', '...pdf'],
		['folder/', 'folder'],
		[' spaced.txt ', 'spaced.txt'],
		['\u2066left\u2069 \u200Fmark.txt', 'left mark.txt'],
		['x'.repeat(300), 'x'.repeat(255)],
		// An ending too long to be an extension is cut like the rest.
		[`a.${'b'.repeat(300)}`, `a.${'b'.repeat(253)}`],
		// A character is never split: 😀 is 4 bytes.
		[`${'😀'.repeat(70)}.png`, `${'😀'.repeat(62)}.png`],
	])('%j becomes %j', (raw, clean) => {
		expect(cleanFileName(raw)).toBe(clean);
	});

	it('refuses for an upload a name with a path separator, a control character or a direction control', () => {
		expect(unsafeUploadName('../x.png')).toMatch(/path separator/);
		expect(unsafeUploadName('a\\b.png')).toMatch(/path separator/);
		expect(unsafeUploadName('a\u0000.png')).toMatch(/control character/);
		expect(unsafeUploadName('a\r\nb.png')).toMatch(/control character/);
		expect(unsafeUploadName('x\u202Egnp.png')).toMatch(/text-direction control/);
		for (const dots of ['.', '..', '...', ' . . ']) {
			expect(unsafeUploadName(dots)).toMatch(/only dots .* a folder step/);
		}
		for (const fine of ['Café ü.pdf', LONG, '.htaccess', 'a..b.png', '...pdf']) {
			expect(unsafeUploadName(fine)).toBeUndefined();
		}
	});
});

/** A media file of app 11 stored under `name` (the platform stores what it is given). */
const stored = (name: string) =>
	uploadFile(sandbox(), 'appId=11', name, PHOTO, 'application/octet-stream');

describe('names of downloaded files', () => {
	it('Media File → Download gives n8n a clean name, from the CDN and from the API host', async () => {
		for (const makePrivate of [false, true]) {
			if (makePrivate) await setAppFileRules(sandbox(), readableByAppToken);
			const files = [];
			for (const [name] of HOSTILE) files.push(await stored(name));
			const result = await runNode({
				parameters: {
					resource: 'mediaFile',
					operation: 'download',
					fileId: '={{ $json.id }}',
					binaryPropertyName: 'file',
				},
				input: files.map((file) => ({ json: { id: file.id } })),
				credentials: sandboxCredential(sandbox(), TOKENS.app),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.binary!.file.fileName)).toEqual(
				HOSTILE.map(([, clean]) => clean),
			);
			for (const item of result.items) expect(item.binary!.file.directory).toBeUndefined();
			// The metadata keeps the name as stored: it is the user's data.
			expect(result.json.map((file) => file.name)).toEqual(HOSTILE.map(([raw]) => raw));
		}
		expect(sandbox().cdnRequests).toHaveLength(HOSTILE.length);
		expect(apiRequests(sandbox(), /\/contents/)).toHaveLength(HOSTILE.length);
	});

	it("Download Files names a file from its URL's last segment, cleaned", async () => {
		await setAppFileRules(sandbox(), readableByAppToken);
		const data: Record<string, unknown> = { Name: 'Hostile names' };
		const columns: string[] = [];
		for (const [index, [name]] of HOSTILE.entries()) {
			const file = await stored(name);
			// The contents route's URL ends with the stored name, encoded.
			expect(file.url).toMatch(/\/contents\/[^/]+$/);
			data[`File${index}`] = file.url;
			columns.push(`File${index}`);
		}
		const entry = await plantedEntry(sandbox(), data);
		const result = await runNode({
			parameters: getWithFiles(entry.id, { fileColumns: columns.join(',') }),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary!;
		expect(columns.map((column) => binary[column].fileName)).toEqual(
			HOSTILE.map(([, clean]) => clean),
		);
	});

	it('Download Files names a file from Content-Disposition (filename* first), cleaned', async () => {
		const dispositions: Record<string, string> = {
			'/nul': `attachment; filename*=UTF-8''evil%00.png`,
			'/crlf': `attachment; filename*=UTF-8''a%0D%0Ab.png; filename="fallback.png"`,
			'/rlo': `attachment; filename*=utf-8''invoice%E2%80%AEfdp.png`,
			'/climb': 'attachment; filename="..\\\\..\\\\x.png"',
			'/long': `attachment; filename="${LONG}"`,
			'/latin': `attachment; filename*=iso-8859-1''Caf%E9%20%FC.pdf`,
			'/plain': `attachment; filename*=UTF-8''Caf%C3%A9%20%C3%BC.pdf`,
			'/fallback': 'attachment; filename=".."',
		};
		const server = http.createServer((req, res) => {
			res.writeHead(200, {
				'Content-Type': 'application/octet-stream',
				'Content-Disposition': dispositions[req.url ?? ''],
			});
			res.end(PHOTO);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const data: Record<string, unknown> = { Name: 'Dispositions' };
			for (const path of Object.keys(dispositions)) data[path.slice(1)] = `${host}${path}`;
			const entry = await plantedEntry(sandbox(), data);
			const result = await runNode({
				parameters: getWithFiles(entry.id, {
					fileColumns: Object.keys(dispositions)
						.map((p) => p.slice(1))
						.join(','),
				}),
				credentials: {
					flipletApi: { ...sandboxCredential(sandbox()).flipletApi, fileHosts: host },
				},
			});
			expect(result.error).toBeUndefined();
			const binary = result.items[0].binary!;
			expect(
				Object.fromEntries(Object.keys(dispositions).map((p) => [p, binary[p.slice(1)].fileName])),
			).toEqual({
				'/nul': 'evil.png',
				'/crlf': 'ab.png',
				'/rlo': 'invoicefdp.png',
				'/climb': 'x.png',
				'/long': `${'a'.repeat(MAX_FILE_NAME_BYTES - 4)}.pdf`,
				'/latin': 'Café ü.pdf',
				'/plain': 'Café ü.pdf',
				// Nothing usable in the header: the URL's last segment.
				'/fallback': 'fallback',
			});
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('names of uploaded files', () => {
	const UNSAFE = ['../x.png', '..\\x.png', 'a\u0000.png', 'a\r\nb.png', 'x\u202Egnp.png', '...'];

	it('Media File → Upload refuses an unsafe name per item, and uploads the others as named', async () => {
		const names = [...UNSAFE, 'Café ü.pdf'];
		const result = await runNode({
			parameters: {
				resource: 'mediaFile',
				operation: 'upload',
				location: 'app',
				app: { __rl: true, mode: 'id', value: '11' },
				binaryPropertyName: 'data',
				options: { fileName: '={{ $json.name }}' },
			},
			input: names.map((name) => ({
				json: { name },
				binary: {
					data: { data: PHOTO.toString('base64'), fileName: 'photo.png', mimeType: 'image/png' },
				},
			})),
			credentials: sandboxCredential(sandbox(), TOKENS.org),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.json.slice(0, UNSAFE.length).map((json) => json.error)).toEqual([
			'The file name "../x.png" cannot be uploaded: it holds a path separator (/ or \\)',
			'The file name "..\\x.png" cannot be uploaded: it holds a path separator (/ or \\)',
			'The file name "a\\u{0000}.png" cannot be uploaded: it holds a control character (such as NUL or a line break)',
			'The file name "a\\u{000D}\\u{000A}b.png" cannot be uploaded: it holds a control character (such as NUL or a line break)',
			'The file name "x\\u{202E}gnp.png" cannot be uploaded: it holds a text-direction control (such as U+202E), which can disguise its extension',
			'The file name "..." cannot be uploaded: it is only dots (such as ".."), a folder step',
		]);
		expect(result.json.at(-1)).toMatchObject({ name: 'Café ü.pdf', appId: 11 });
		const uploads = apiRequests(sandbox(), /^\/v1\/media\/files$/);
		expect(uploads.map((request) => request.body.multipart.fields['name[0]'])).toEqual([
			'Café ü.pdf',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual(names.map((_, item) => ({ item })));
	});

	it("Entry → Insert refuses a file whose binary data's name is unsafe, sending nothing", async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: { __rl: true, mode: 'id', value: String(STAFF) },
				columns: { mappingMode: 'defineBelow', value: { Name: 'Gus Hale' } },
				files: { file: [{ column: 'Photo', binaryPropertyName: 'picture' }] },
			},
			input: [
				{
					json: {},
					binary: {
						picture: {
							data: PHOTO.toString('base64'),
							fileName: 'gus\r\n.png',
							mimeType: 'image/png',
						},
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe(
			'The file name "gus\\u{000D}\\u{000A}.png" cannot be uploaded: it holds a control character (such as NUL or a line break)',
		);
		expect(apiRequests(sandbox(), /^\/v1\//)).toEqual([]);
	});
});
