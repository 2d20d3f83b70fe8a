import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { anySignal, pauseUnlessAborted, requestSignal, withCancelSignal } from './abort';
import { answerFileName, lastSegment } from './answerFileName';
import { sendWithRetries, type RawResponse } from './attempts';
import { resolveBaseUrl, type FlipletCredentialData } from './baseUrl';
import { startBodyTimer, type BodyTimer } from './bodyTimer';
import { toNodeApiError } from './errors';
import { fileHostsOf, locateFile, type FileHosts } from './fileHosts';
import { MAX_SAME_ORIGIN_REDIRECTS, redirectTarget } from './redirects';
import { CREDENTIAL_NAME, parseJsonBody } from './request';
import { backoffMs, header, isNetworkFault, MAX_FAULT_RETRIES } from './retryPolicy';
import { streamLike, type ReadableBytes } from './streams';
import { cleanFileName } from '../helpers/fileNames';
import { timeoutField, timeoutFor } from './timeouts';

/** Contexts that can store binary data: the action node, the polling and the instant trigger. */
export type DownloadContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

/** The client's idle timeout stays this far behind the deadline of the answer's start. */
const CLIENT_TIMEOUT_MARGIN_MS = 5_000;
/** Bytes of an error answer read to show its message. */
const ERROR_BODY_BYTES = 64 * 1024;

export interface FileDownloadRequest {
	/** An absolute URL (an entry's file column, a media file's `url`) or a path on the API host. */
	url?: string;
	path?: string;
	qs?: IDataObject;
	itemIndex?: number;
	/** Bytes the file may hold (none: no limit); a larger file is refused, its bytes not kept. */
	maxBytes?: number;
	/** The binary's file name (else the answer's, else the URL's last segment). */
	fileName?: string;
	/** The binary's MIME type when the answer gives none. */
	mimeType?: string;
}

/** A URL that is not fetched: it is not on the API host or a file host (see locateFile). */
export class FileNotFetchedError extends NodeOperationError {
	constructor(
		node: INode,
		readonly url: string,
		readonly reason: string,
		itemIndex?: number,
	) {
		super(node, `The file was not downloaded: ${reason}`, {
			itemIndex,
			description:
				"Files are downloaded only from the Fliplet API host (with the token) and Fliplet's file hosts (without it); the URL is left as it is.",
		});
	}
}

/** A file larger than the size limit. */
export class FileTooLargeError extends NodeOperationError {
	constructor(
		node: INode,
		readonly maxBytes: number,
		readonly bytes?: number,
		itemIndex?: number,
	) {
		super(
			node,
			`The file is larger than the limit of ${maxBytes} bytes${bytes === undefined ? '' : ` (${bytes} bytes)`}`,
			{ itemIndex, description: 'Raise Max File Size (0: no limit) to download it.' },
		);
	}
}

/**
 * A body that stopped coming, or came too slowly, after its answer started: no byte for longer than
 * the data timeout, or not done within the timeout plus the time its size takes at 100 kB/s.
 * Not downloaded again: a host that stalls once may stall again, and the run must end in time.
 */
export class FileTimedOutError extends NodeOperationError {
	constructor(
		node: INode,
		readonly url: string,
		message: string,
		timeoutMs: number,
		itemIndex?: number,
	) {
		super(node, message, {
			itemIndex,
			description: `The host started its answer, then sent nothing for longer than the credential's Data Timeout (${seconds(timeoutMs)} s), or too slowly to finish within that timeout plus 10 s per MB of the file. The file was not downloaded again. Try again later, or raise Data Timeout (Seconds) in the credential.`,
		});
	}
}

/** Thrown while the body streams: more bytes than the limit arrived (see guarded). */
class OverLimit extends Error {}

/** A redirect answer, handed back by an attempt instead of followed (see openHop). */
class Redirect {
	constructor(readonly to: URL | undefined) {}
}

interface Opened {
	body: ReadableBytes;
	headers: Record<string, unknown>;
	url: URL;
	/** Whether the answer came from the API host (the contents route), not a file host. */
	fromApi: boolean;
}

/** A downloaded file: its binary data, and how it was served. */
export interface DownloadedFile {
	binary: IBinaryData;
	/**
	 * An image read through the API's contents route without a `size`: the platform serves it at
	 * its default size (`xlarge`, 1980 px on the smallest side, `docs/REST-API/fliplet-media.md`),
	 * so it may be smaller than the file stored. Whether any `size` gives the original bytes is
	 * not shown, so none is sent.
	 */
	atDefaultImageSize: boolean;
}

/**
 * Downloads a file into n8n's binary data, streamed: its bytes go from the socket to n8n's binary
 * data storage (to disk in filesystem mode) without being held whole. Only the API host gets the
 * token; a file host (the region's CDN) never does, and any other host is never contacted
 * (FileNotFetchedError). Redirects are followed only to those hosts, by the same rule, at most 3.
 * The answer's start has the credential's data timeout; its body then has a timer of its own (see
 * startBodyTimer): no byte for longer than that timeout, or a whole body slower than the timeout
 * plus its size at 100 kB/s (the size from Content-Length, else Max File Size; without a Max File
 * Size, the body must keep 100 kB/s after its first timeout), ends it (FileTimedOutError). An
 * answer cut mid-way is downloaded again (up to 3 times, with backoff), as a read; a stopped
 * execution ends it at once. Every name the file gets is cleaned (cleanFileName).
 */
export async function downloadBinary(
	this: DownloadContext,
	request: FileDownloadRequest,
): Promise<DownloadedFile> {
	const credentials = await this.getCredentials<FlipletCredentialData>(CREDENTIAL_NAME);
	const resolved = resolveBaseUrl(credentials);
	const hosts = 'error' in resolved ? resolved : fileHostsOf(credentials, resolved.url);
	if ('error' in hosts) {
		throw new NodeOperationError(this.getNode(), hosts.error, {
			itemIndex: request.itemIndex,
			description:
				'Edit the Fliplet API credential: pick a region, or give an https:// base URL (and https:// file hosts).',
		});
	}
	const raw = request.url ?? `${(resolved as { url: string }).url}${request.path ?? ''}`;
	const signal = requestSignal(this);
	const timeoutMs = timeoutFor('data', credentials);
	for (let retry = 0; ; retry++) {
		// Ends this attempt's request once its body's timer expires: the client then ends the body
		// (a stream that never sends cannot be ended from its reading side alone).
		const bodyEnded = new AbortController();
		const attemptSignal = anySignal([signal, bodyEnded.signal]);
		const opened = await open.call(this, raw, request, credentials, hosts, attemptSignal);
		const length = contentLength(opened.headers);
		if (request.maxBytes !== undefined && length !== undefined && length > request.maxBytes) {
			opened.body.destroy();
			throw new FileTooLargeError(this.getNode(), request.maxBytes, length, request.itemIndex);
		}
		// The whole body's bound counts on its Content-Length only where Max File Size caps it: with
		// no limit, a host claiming a terabyte would get months, so the body must keep the pace.
		const sizeBytes = request.maxBytes === undefined ? undefined : (length ?? request.maxBytes);
		const timer = startBodyTimer(timeoutMs, sizeBytes, () => {
			bodyEnded.abort(new Error('the body timer expired'));
			opened.body.destroy();
		});
		const body = streamLike(opened.body, guarded(opened.body, request.maxBytes, timer));
		const mimeType = mimeTypeOf(opened) ?? request.mimeType;
		let failure: unknown;
		try {
			const binary = await this.helpers.prepareBinaryData(
				body,
				cleanFileName(request.fileName) ?? answerFileName(opened.headers, opened.url),
				mimeType,
			);
			return { binary, atDefaultImageSize: atDefaultImageSize(opened, request.qs, mimeType) };
		} catch (error) {
			failure = error;
			body.destroy();
			opened.body.destroy();
		} finally {
			timer.stop();
		}
		if (failure instanceof OverLimit) {
			throw new FileTooLargeError(this.getNode(), request.maxBytes!, undefined, request.itemIndex);
		}
		if (timer.expired) {
			throw timedOut(this.getNode(), opened.url, timer, timeoutMs, request.itemIndex);
		}
		const { code, message } = details(failure);
		const cut = !signal?.aborted && isNetworkFault(code, message);
		if (!signal?.aborted && !cut) {
			// Not the network: storing the bytes failed (n8n's disk or database).
			throw new NodeOperationError(
				this.getNode(),
				`The file could not be stored in n8n's binary data: ${message}`,
				{
					itemIndex: request.itemIndex,
					description:
						"Check n8n's binary data storage (the disk of its filesystem mode, or its database), then run the item again.",
				},
			);
		}
		if (cut && retry < MAX_FAULT_RETRIES && (await pauseUnlessAborted(backoffMs(retry), signal)))
			continue;
		throw toNodeApiError(
			this.getNode(),
			{
				method: 'GET',
				path: opened.url.pathname,
				idempotent: true,
				itemIndex: request.itemIndex,
				attempts: retry + 1,
				networkCode: code,
				networkMessage: signal?.aborted
					? 'the execution was stopped, or the caller gave up on it'
					: message,
				networkKind: signal?.aborted ? 'cancelled' : 'cut',
			},
			credentials.accessToken,
		);
	}
}

function details(error: unknown): { code?: string; message: string } {
	const err = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
	const code = err?.code ?? err?.cause?.code;
	return {
		code: typeof code === 'string' ? code : undefined,
		message: String(err?.message ?? error),
	};
}

/** Opens the file's answer, following redirects to allowed hosts. */
async function open(
	this: DownloadContext,
	raw: string,
	request: FileDownloadRequest,
	credentials: FlipletCredentialData,
	hosts: FileHosts,
	signal: AbortSignal | undefined,
): Promise<Opened> {
	let location = locateFile(raw, hosts);
	for (let hop = 0; ; hop++) {
		if ('refused' in location) {
			throw new FileNotFetchedError(this.getNode(), raw, location.refused, request.itemIndex);
		}
		const answer = await openHop.call(
			this,
			location,
			hop === 0 ? request : {},
			credentials,
			signal,
		);
		if (!(answer.body instanceof Redirect)) {
			return {
				body: answer.body as ReadableBytes,
				headers: answer.headers,
				url: location.url,
				fromApi: location.host === 'api',
			};
		}
		const target = answer.body.to;
		const next = target
			? locateFile(target.href, hosts)
			: { refused: 'the redirect has no address' };
		if ('refused' in next || hop >= MAX_SAME_ORIGIN_REDIRECTS) {
			throw new NodeApiError(
				this.getNode(),
				{ status: 302, url: location.url.origin + location.url.pathname },
				{
					message: `The download was redirected to ${target?.origin ?? 'an unknown address'}; the redirect was not followed`,
					description:
						'Files are only downloaded from the Fliplet API host (with the token) and the Fliplet file hosts (without it), and at most 3 redirects are followed.',
					itemIndex: request.itemIndex,
				},
			);
		}
		location = next;
	}
}

/**
 * One hop: a GET of the URL through the transport's attempt loop (one deadline for the answer's
 * start, waits and retries as for any read). To the API host through the credential (its token);
 * to a file host through n8n's plain request helper (no token). Error answers are read (a little
 * of them) for their message; a redirect comes back as a Redirect for `open` to judge.
 */
async function openHop(
	this: DownloadContext,
	location: { host: 'api' | 'cdn'; url: URL },
	{ qs, itemIndex }: Pick<FileDownloadRequest, 'qs' | 'itemIndex'>,
	credentials: FlipletCredentialData,
	signal: AbortSignal | undefined,
): Promise<RawResponse> {
	const { url, host } = location;
	const deadlineMs = timeoutFor('data', credentials);
	const options: IHttpRequestOptions = {
		method: 'GET',
		baseURL: url.origin,
		url: url.pathname + url.search,
		qs: qs && Object.keys(qs).length ? qs : undefined,
		headers: { Accept: '*/*' },
		encoding: 'stream',
		timeout: deadlineMs + CLIENT_TIMEOUT_MARGIN_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const send = async (attempt: IHttpRequestOptions): Promise<RawResponse> => {
		const context = attempt.abortSignal
			? withCancelSignal(this, attempt.abortSignal as AbortSignal)
			: this;
		const answer = (
			host === 'api'
				? await this.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_NAME, attempt)
				: await context.helpers.httpRequest(attempt)
		) as RawResponse;
		if (answer.statusCode < 300) return answer;
		const body = answer.body as ReadableBytes;
		if (answer.statusCode < 400) {
			body.destroy();
			const to = redirectTarget(answer.headers, url.href);
			return { statusCode: 200, headers: answer.headers, body: new Redirect(to) };
		}
		return { ...answer, body: await firstBytes(body, ERROR_BODY_BYTES) };
	};
	return await sendWithRetries({
		method: 'GET',
		options,
		idempotent: true,
		send,
		deadlineMs,
		timeoutField: timeoutField(url.pathname),
		signal,
		parseError: (answer) =>
			parseJsonBody(Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body),
		fail: (failure) =>
			host === 'api'
				? toNodeApiError(
						this.getNode(),
						{ method: 'GET', path: url.pathname, idempotent: true, itemIndex, ...failure },
						credentials.accessToken,
					)
				: fileHostError(this, url, failure, itemIndex),
	});
}

/** A file host (CDN) refused or failed: it got no token, so the API's token hints do not apply. */
function fileHostError(
	context: DownloadContext,
	url: URL,
	failure: { status?: number; networkMessage?: string; attempts: number },
	itemIndex: number | undefined,
): NodeApiError {
	const where = `${url.origin}${url.pathname}`;
	const status = failure.status;
	const message =
		status === undefined
			? `Could not download the file from ${url.origin}: ${failure.networkMessage ?? 'the connection failed'}`
			: `${url.origin} answered ${status} for the file`;
	const description =
		status === 403 || status === 404
			? "The file is not on Fliplet's file host: it was deleted, or it is private or encrypted (those are read through the API host, with a token its access rules let in). Check the file in Fliplet Studio's File Manager."
			: `Try again later. The request was sent ${failure.attempts} time(s).`;
	return new NodeApiError(
		context.getNode(),
		{ status: status ?? null, url: where, attempts: failure.attempts },
		{
			message,
			description,
			httpCode: status === undefined ? undefined : String(status),
			itemIndex,
		},
	);
}

/**
 * Up to `limit` bytes of a stream (an error answer's body), then the stream is ended. It is read
 * within the attempt's deadline, which ends a body that stalls.
 */
async function firstBytes(stream: ReadableBytes, limit: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			chunks.push(chunk);
			size += chunk.length;
			if (size >= limit) break;
		}
	} catch {
		// What arrived before the connection failed is enough to show.
	} finally {
		stream.destroy();
	}
	return Buffer.concat(chunks).subarray(0, limit);
}

/**
 * The answer's body as it arrives, each chunk counted by the body's timer; ended with OverLimit as
 * soon as more than `maxBytes` have arrived (nothing past the limit is passed on), for an answer
 * whose Content-Length did not already say so.
 */
async function* guarded(
	body: ReadableBytes,
	maxBytes: number | undefined,
	timer: BodyTimer,
): AsyncGenerator<Buffer> {
	let size = 0;
	try {
		for await (const chunk of body as AsyncIterable<Buffer>) {
			timer.received(chunk.length);
			size += chunk.length;
			if (maxBytes !== undefined && size > maxBytes) throw new OverLimit();
			yield chunk;
		}
	} finally {
		// All of it came (or it failed): storing it is not the host's time.
		timer.stop();
	}
}

/** The answer's Content-Length, when it gives a whole number of bytes. */
function contentLength(headers: Record<string, unknown>): number | undefined {
	const value = header(headers, 'content-length')?.trim();
	return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** The error for a body its timer ended, naming the file and its host. */
function timedOut(
	node: INode,
	url: URL,
	timer: BodyTimer,
	timeoutMs: number,
	itemIndex: number | undefined,
): FileTimedOutError {
	const file = cleanFileName(lastSegment(url)) ?? url.pathname;
	const message =
		timer.expired === 'idle'
			? `The download of ${file} from ${url.origin} stalled: no data for ${seconds(timeoutMs)} s`
			: `The download of ${file} from ${url.origin} was too slow: not done within ${seconds(timer.totalMs())} s`;
	return new FileTimedOutError(node, `${url.origin}${url.pathname}`, message, timeoutMs, itemIndex);
}

/** Milliseconds as seconds, to a tenth. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Whether an image came from the API's contents route without a size (see DownloadedFile). */
function atDefaultImageSize(
	opened: Opened,
	qs: IDataObject | undefined,
	mimeType: string | undefined,
): boolean {
	const sized = opened.url.searchParams.has('size') || (qs !== undefined && 'size' in qs);
	return opened.fromApi && !sized && /^image\//i.test(mimeType ?? '');
}

/** The answer's MIME type without its parameters, when it gives one. */
function mimeTypeOf({ headers }: Opened): string | undefined {
	const type = header(headers, 'content-type')?.split(';')[0].trim();
	return type || undefined;
}
