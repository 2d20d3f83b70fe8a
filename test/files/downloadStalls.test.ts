/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { runPoll } from '../harness/poll';
import {
	contentsRequests,
	formEntry,
	getWithFiles,
	PHOTO,
	plantedEntry,
	privatePhotoEntry,
	readableByAppToken,
	RECEIPT,
	setAppFileRules,
	STAFF_LOCATOR,
} from './fileFixtures';

// A download whose host stalls after its headers, or trickles, ends within its bound: no byte for
// longer than the Data Timeout, or the whole body slower than that timeout plus its size at
// 100 kB/s (the size from Content-Length, else Max File Size; with no Max File Size, the body must
// keep that pace, whatever its Content-Length claims). The run ends with an error naming the file and the host; a poll delivers the entry
// and notes the file. The bounds below are upper limits of the test, far above the bound itself,
// so a busy machine does not fail them: a download without a timer would run for hours.
const sandbox = useSandbox();
const TIMEOUT_S = 2;
const SLACK_MS = 15_000;

const credential = () => ({
	flipletApi: { ...sandboxCredential(sandbox()).flipletApi, timeout: TIMEOUT_S },
});

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const started = Date.now();
	const result = await run();
	return { result, ms: Date.now() - started };
}

/**
 * A file host (listed in File Hosts) that answers 200 and then sends one byte every `everyMs`,
 * for as long as the client reads: without a Content-Length, unless `headers` gives one.
 */
async function tricklingHost(everyMs: number, headers: Record<string, string> = {}) {
	let closed!: Promise<void>;
	const server = http.createServer((req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/pdf', ...headers });
		const timer = setInterval(() => res.write('x'), everyMs);
		closed = new Promise((resolve) =>
			res.on('close', () => {
				clearInterval(timer);
				resolve();
			}),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		closed: () => closed,
		stop: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

describe('a download whose host stalls or trickles after its headers', () => {
	it('stalled after the headers: the run ends after the Data Timeout with an error naming the file and the host', async () => {
		const entry = await privatePhotoEntry(sandbox());
		sandbox().injectFault({ mode: 'stall-after', path: '^/v1/media/files/' });

		const { result, ms } = await timed(() =>
			runNode({ parameters: getWithFiles(entry.id), credentials: credential() }),
		);

		expect(result.error?.message).toBe(
			`Column "Photo": The download of lamp.png from ${sandbox().url} stalled: no data for ${TIMEOUT_S} s`,
		);
		expect(result.error?.description).toMatch(/Data Timeout \(2 s\).*not downloaded again/);
		expect(ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
		expect(ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
		// Sent once, and the connection was closed by the node.
		const [request] = contentsRequests(sandbox());
		expect(contentsRequests(sandbox())).toHaveLength(1);
		await request.closed;
		expect(request.abandoned).toBe(true);
	});

	it('trickling with a Content-Length: ends at the Data Timeout plus the size at 100 kB/s', async () => {
		// 100 kB, a byte every 50 ms: it would take 83 minutes; its bound is 2 s + 1 s.
		const entry = await privatePhotoEntry(sandbox(), Buffer.alloc(100_000, 7));
		sandbox().injectFault({
			mode: 'drip-after',
			path: '^/v1/media/files/',
			dripBytes: 1,
			dripMs: 50,
		});

		const { result, ms } = await timed(() =>
			runNode({ parameters: getWithFiles(entry.id), credentials: credential() }),
		);

		expect(result.error?.message).toBe(
			`Column "Photo": The download of lamp.png from ${sandbox().url} was too slow: not done within 3 s`,
		);
		expect(ms).toBeGreaterThanOrEqual(3_000);
		expect(ms).toBeLessThan(3_000 + SLACK_MS);
		expect(contentsRequests(sandbox())).toHaveLength(1);
	});

	it.each([
		// Without a Content-Length, the size is Max File Size: 2 s + 0.1 MB at 100 kB/s.
		[0.1, 'none', 3.0],
		// Without either, the body must keep 100 kB/s after the timeout: it ends at about 2 s.
		[0, 'none', 2.0],
		// With no Max File Size, a Content-Length is not taken on trust: a terabyte claimed would get
		// 2 s + 10^7 s (four months); the body must keep the pace as without a length.
		[0, String(10 ** 12), 2.0],
	])(
		'trickling from a file host, Max File Size %s MB, Content-Length %s: ends within %s s',
		async (maxFileSizeMb, length, boundS) => {
			const headers: Record<string, string> = length === 'none' ? {} : { 'Content-Length': length };
			const host = await tricklingHost(40, headers);
			try {
				const entry = await plantedEntry(sandbox(), {
					Name: 'Slow scan',
					Scan: `${host.url}/scans/slow.pdf`,
					ScanMediaFileId: 1,
				});
				const { result, ms } = await timed(() =>
					runNode({
						parameters: getWithFiles(entry.id, { maxFileSizeMb }),
						credentials: {
							flipletApi: { ...credential().flipletApi, fileHosts: host.url },
						},
					}),
				);
				expect(result.error?.message).toMatch(
					new RegExp(
						`^Column "Scan": The download of slow\\.pdf from ${host.url} was too slow: not done within ${boundS}(\\.\\d)? s$`,
					),
				);
				expect(ms).toBeGreaterThanOrEqual(boundS * 1000 - 100);
				expect(ms).toBeLessThan(boundS * 1000 + SLACK_MS);
				await host.closed();
			} finally {
				await host.stop();
			}
		},
	);
});

describe('the Fliplet Trigger with Download Files and a stalled host', () => {
	const poll = (staticData?: Record<string, any>) =>
		runPoll({
			parameters: { event: 'newEntry', dataSource: STAFF_LOCATOR, downloadFiles: true } as never,
			credentials: {
				flipletApi: {
					...sandboxCredential(sandbox(), TOKENS.app).flipletApi,
					timeout: TIMEOUT_S,
				},
			},
			staticData,
			mode: 'trigger',
		});

	it('delivers the entry with the file skipped and noted, and ends the poll', async () => {
		const activation = await poll();
		const entry = await privatePhotoEntry(sandbox());
		sandbox().injectFault({ mode: 'stall-after', path: '^/v1/media/files/' });

		const { result: next, ms } = await timed(() => poll(activation.staticData));

		expect(next.error).toBeUndefined();
		expect(ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
		const [item] = next.items!;
		expect(item.json.id).toBe(entry.id);
		expect(item.binary).toBeUndefined();
		expect(item.json.fileDownloads).toEqual([
			{
				column: 'Photo',
				url: entry.data.Photo,
				status: 'skipped',
				reason: `The download of lamp.png from ${sandbox().url} stalled: no data for ${TIMEOUT_S} s`,
			},
		]);
		// The cursor moved past it: the next poll delivers nothing again.
		expect((await poll(next.staticData)).items).toBeNull();
	});

	it('with several files, one of them stalled: the others are downloaded, every entry delivered', async () => {
		const activation = await poll();
		await setAppFileRules(sandbox(), readableByAppToken);
		const first = await formEntry(sandbox(), { Name: 'Lamp' }, [
			{ column: 'Photo', name: 'lamp.png', type: 'image/png', bytes: PHOTO },
			{ column: 'Receipt', name: 'receipt.pdf', type: 'application/pdf', bytes: RECEIPT },
		]);
		const second = await formEntry(sandbox(), { Name: 'Desk' }, [
			{ column: 'Photo', name: 'desk.png', type: 'image/png', bytes: PHOTO },
		]);
		// Only the first file's host stalls.
		sandbox().injectFault({ mode: 'stall-after', path: '^/v1/media/files/' });

		const { result: next, ms } = await timed(() => poll(activation.staticData));

		expect(next.error).toBeUndefined();
		expect(ms).toBeLessThan(TIMEOUT_S * 1000 + SLACK_MS);
		expect(next.items!.map((item) => item.json.id)).toEqual([first.id, second.id]);
		const [lamp, desk] = next.items!;
		expect(lamp.json.fileDownloads).toEqual([
			{
				column: 'Photo',
				url: first.data.Photo,
				status: 'skipped',
				reason: `The download of lamp.png from ${sandbox().url} stalled: no data for ${TIMEOUT_S} s`,
			},
			{
				column: 'Receipt',
				url: first.data.Receipt,
				status: 'downloaded',
				binaryProperty: 'Receipt',
			},
		]);
		expect(Object.keys(lamp.binary!)).toEqual(['Receipt']);
		expect(Buffer.from(lamp.binary!.Receipt.data, 'base64')).toEqual(RECEIPT);
		expect(Buffer.from(desk.binary!.Photo.data, 'base64')).toEqual(PHOTO);
		// Each file was asked for once: the stalled one is not tried again.
		expect(contentsRequests(sandbox()).map((request) => request.path)).toEqual([
			`/v1/media/files/${first.data.PhotoMediaFileId}/contents/lamp.png`,
			`/v1/media/files/${first.data.ReceiptMediaFileId}/contents/receipt.pdf`,
			`/v1/media/files/${second.data.PhotoMediaFileId}/contents/desk.png`,
		]);
	});
});
