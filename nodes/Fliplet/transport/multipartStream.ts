import {
	closing,
	fieldHead,
	fileHead,
	newBoundary,
	type MultipartField,
	type MultipartFile,
} from './multipart';
import { bytesOf, streamLike, type ReadableBytes } from './streams';
import { findUnsafeFormKey } from './unsafeKeys';

/** A file part whose bytes are read when the body is sent, not before. */
export interface StreamedFile extends Omit<MultipartFile, 'data'> {
	/** Its size in bytes. */
	bytes: number;
	/**
	 * Its bytes: a stream read from n8n's binary data storage (filesystem or database mode), or,
	 * when n8n keeps binary data in memory, the Buffer it holds. Called once per attempt.
	 */
	open(): Promise<ReadableBytes | Buffer>;
}

/** A multipart body sent as a stream: no copy of a file is held to send it. */
export interface StreamedMultipart {
	contentType: string;
	/** Its exact length, sent as Content-Length. */
	length: number;
	/** A fresh body for each attempt: a stream, or one Buffer when every file is in memory. */
	open(): Promise<ReadableBytes | Buffer>;
	/** A prototype-pollution key among the part names (refused before sending). */
	unsafeKey?: string;
}

/**
 * A multipart/form-data body whose files are streamed from n8n's binary data storage as it is sent
 * (so a 200 MB file never sits in memory), with its exact length known beforehand. When n8n keeps
 * every file in memory anyway (its in-memory binary data mode), the body is those bytes in one
 * Buffer, as buildMultipartBody makes it.
 */
export function streamedMultipart(
	fields: MultipartField[],
	files: StreamedFile[],
): StreamedMultipart {
	const boundary = newBoundary();
	const head = Buffer.from(
		fields.map((field) => `${fieldHead(boundary, field.name)}${field.value}\r\n`).join(''),
	);
	const heads = files.map((file) => Buffer.from(fileHead(boundary, file)));
	const lineEnd = Buffer.from('\r\n');
	const tail = Buffer.from(closing(boundary));
	const length =
		head.length +
		heads.reduce((sum, part, index) => sum + part.length + files[index].bytes + lineEnd.length, 0) +
		tail.length;
	const unsafeKey = findUnsafeFormKey([
		...fields,
		...files.map((file) => ({ name: file.name, value: '' })),
	]);
	return {
		contentType: `multipart/form-data; boundary=${boundary}`,
		length,
		...(unsafeKey === undefined ? {} : { unsafeKey }),
		async open() {
			const sources: Array<ReadableBytes | Buffer> = [];
			for (const file of files) sources.push(await file.open());
			const stream = sources.find((source): source is ReadableBytes => !Buffer.isBuffer(source));
			if (!stream) {
				const parts = sources.flatMap((data, index) => [heads[index], data as Buffer, lineEnd]);
				return Buffer.concat([head, ...parts, tail]);
			}
			const body = streamLike(stream, parts(head, heads, sources, lineEnd, tail));
			// However it ends (sent, failed, stopped before it was read), the files are closed.
			body.once('close', () => {
				for (const source of sources) if (!Buffer.isBuffer(source)) source.destroy();
			});
			return body;
		},
	};
}

async function* parts(
	head: Buffer,
	heads: Buffer[],
	sources: Array<ReadableBytes | Buffer>,
	lineEnd: Buffer,
	tail: Buffer,
): AsyncGenerator<Buffer> {
	yield head;
	for (const [index, source] of sources.entries()) {
		yield heads[index];
		if (Buffer.isBuffer(source)) yield source;
		else yield* bytesOf(source);
		yield lineEnd;
	}
	yield tail;
}
