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

import { pauseUnlessAborted, requestSignal, withCancelSignal } from './abort';
import { sendWithRetries, type RawResponse } from './attempts';
import { resolveBaseUrl, type FlipletCredentialData } from './baseUrl';
import { toNodeApiError } from './errors';
import { fileHostsOf, locateFile, type FileHosts } from './fileHosts';
import { MAX_SAME_ORIGIN_REDIRECTS, redirectTarget } from './redirects';
import { CREDENTIAL_NAME, parseJsonBody } from './request';
import { backoffMs, header, isNetworkFault, MAX_FAULT_RETRIES } from './retryPolicy';
import { streamLike, type ReadableBytes } from './streams';
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

/** Thrown while the body streams: more bytes than the limit arrived (see withinLimit). */
class OverLimit extends Error {}

/** A redirect answer, handed back by an attempt instead of followed (see openHop). */
class Redirect {
	constructor(readonly to: URL | undefined) {}
}

interface Opened {
	body: ReadableBytes;
	headers: Record<string, unknown>;
	url: URL;
}

/**
 * Downloads a file into n8n's binary data, streamed: its bytes go from the socket to n8n's binary
 * data storage (to disk in filesystem mode) without being held whole. Only the API host gets the
 * token; a file host (the region's CDN) never does, and any other host is never contacted
 * (FileNotFetchedError). Redirects are followed only to those hosts, by the same rule, at most 3.
 * The answer's start has the credential's data timeout; an answer cut mid-way is downloaded again
 * (up to 3 times, with backoff), as a read; a stopped execution ends it at once.
 */
export async function downloadBinary(
	this: DownloadContext,
	request: FileDownloadRequest,
): Promise<IBinaryData> {
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
	for (let retry = 0; ; retry++) {
		const opened = await open.call(this, raw, request, credentials, hosts, signal);
		const length = Number(header(opened.headers, 'content-length'));
		if (request.maxBytes !== undefined && Number.isFinite(length) && length > request.maxBytes) {
			opened.body.destroy();
			throw new FileTooLargeError(this.getNode(), request.maxBytes, length, request.itemIndex);
		}
		const body = withinLimit(opened.body, request.maxBytes);
		let failure: unknown;
		try {
			return await this.helpers.prepareBinaryData(
				body,
				request.fileName ?? fileNameOf(opened),
				mimeTypeOf(opened) ?? request.mimeType,
			);
		} catch (error) {
			failure = error;
			body.destroy();
			opened.body.destroy();
		}
		if (failure instanceof OverLimit) {
			throw new FileTooLargeError(this.getNode(), request.maxBytes!, undefined, request.itemIndex);
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
			return { body: answer.body as ReadableBytes, headers: answer.headers, url: location.url };
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

/** Up to `limit` bytes of a stream (an error answer's body), then the stream is ended. */
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
 * The answer's body, ended with OverLimit as soon as more than `maxBytes` have arrived (nothing
 * past the limit is passed on), for an answer whose Content-Length did not already say so.
 */
function withinLimit(body: ReadableBytes, maxBytes: number | undefined): ReadableBytes {
	return maxBytes === undefined ? body : streamLike(body, counted(body, maxBytes));
}

async function* counted(body: ReadableBytes, maxBytes: number): AsyncGenerator<Buffer> {
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > maxBytes) throw new OverLimit();
		yield chunk;
	}
}

/** The name the answer gives the file (Content-Disposition), else the last segment of its URL. */
function fileNameOf({ headers, url }: Opened): string | undefined {
	const disposition = header(headers, 'content-disposition') ?? '';
	const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
	const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(disposition);
	const candidates = [encoded, plain?.[1] ?? plain?.[2], url.pathname.split('/').pop()];
	for (const candidate of candidates) {
		const name = decoded(candidate?.trim() ?? '');
		// A name, never a path: n8n keeps only its last segment.
		const base = name.split(/[\\/]/).pop() ?? '';
		if (base && base !== '.' && base !== '..') return base;
	}
	return undefined;
}

function decoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** The answer's MIME type without its parameters, when it gives one. */
function mimeTypeOf({ headers }: Opened): string | undefined {
	const type = header(headers, 'content-type')?.split(';')[0].trim();
	return type || undefined;
}
