/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode, TOKENS } from '../harness';
import { getWithFiles } from './fileFixtures';

// An answer that does not say its length (chunked): the download stops as soon as more bytes
// than the limit have arrived, and nothing is kept. A small server stands for the API host here:
// the sandbox always sends a Content-Length.
const CHUNK = Buffer.alloc(64 * 1024, 1);
let server: http.Server;
let base = '';
let sentChunks = 0;
let clientLeft = false;
/** Settles when the video's answer has ended, either way. */
let videoClosed: Promise<void> | undefined;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		if (req.url?.startsWith('/v1/data-sources/100/data/7')) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					id: 7,
					dataSourceId: 100,
					data: {
						Video: `${base}/v1/media/files/9/contents/site.mp4`,
						VideoMediaFileId: 9,
						Note: `${base}/v1/media/files/10/contents/note.txt`,
						NoteMediaFileId: 10,
					},
				}),
			);
			return;
		}
		if (req.url?.startsWith('/v1/media/files/10/')) {
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.end('a short note');
			return;
		}
		// 64 chunks of 64 kB (4 MB) without a Content-Length, as long as the client reads.
		res.writeHead(200, { 'Content-Type': 'video/mp4' });
		videoClosed = new Promise((resolve) =>
			res.on('close', () => {
				if (!res.writableFinished) clientLeft = true;
				resolve();
			}),
		);
		const write = () => {
			while (sentChunks < 64 && !res.destroyed) {
				sentChunks++;
				if (!res.write(CHUNK)) return void res.once('drain', write);
			}
			if (!res.destroyed) res.end();
		};
		write();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

it('stops reading an answer of unknown length once it passes Max File Size, and reports it', async () => {
	const result = await runNode({
		parameters: { ...getWithFiles(7), entryId: '7', maxFileSizeMb: 1 },
		credentials: { flipletApi: { accessToken: TOKENS.app, region: 'custom', baseUrl: base } },
	});
	expect(result.error).toBeUndefined();
	const [item] = result.items;
	expect(Object.keys(item.binary ?? {})).toEqual(['Note']);
	expect(item.json.fileDownloads).toEqual([
		{
			column: 'Video',
			url: `${base}/v1/media/files/9/contents/site.mp4`,
			status: 'skipped',
			reason: `The file is larger than the limit of ${1024 * 1024} bytes`,
		},
		expect.objectContaining({ column: 'Note', status: 'downloaded' }),
	]);
	// The client hung up well before the 4 MB were sent.
	await videoClosed;
	expect(clientLeft).toBe(true);
	expect(sentChunks).toBeLessThan(64);
});
