import { randomBytes } from 'crypto';

import { findUnsafeFormKey } from './unsafeKeys';

export interface MultipartField {
	name: string;
	value: string;
}

export interface MultipartFile {
	name: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface MultipartBody {
	body: Buffer;
	contentType: string;
	/** A prototype-pollution key among the fields (refused before sending, as in JSON bodies). */
	unsafeKey?: string;
}

const quoted = (value: string) => value.replace(/["\\\r\n]/g, (c) => encodeURIComponent(c));

/** A MIME type comes from item data: without control characters it cannot end its header line. */
const headerValue = (value: string) => value.replace(/\p{Cc}/gu, '').trim();

/** A random boundary that never occurs in text. */
export const newBoundary = () => `----n8nFliplet${randomBytes(12).toString('hex')}`;

/** The delimiter and headers that open a text part. */
export const fieldHead = (boundary: string, name: string) =>
	`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n`;

/** The delimiter and headers that open a file part. */
export const fileHead = (
	boundary: string,
	file: Pick<MultipartFile, 'name' | 'fileName' | 'mimeType'>,
) =>
	`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.fileName)}"\r\nContent-Type: ${headerValue(file.mimeType) || 'application/octet-stream'}\r\n\r\n`;

/** The delimiter that closes the body. */
export const closing = (boundary: string) => `--${boundary}--\r\n`;

/**
 * A multipart/form-data body built by hand: n8n's request helpers send a Buffer as is, so files
 * can be uploaded without a form-data dependency. The boundary is random and never occurs in text.
 */
export function buildMultipartBody(
	fields: MultipartField[],
	files: MultipartFile[],
): MultipartBody {
	const boundary = newBoundary();
	const chunks: Buffer[] = [];
	for (const field of fields) {
		chunks.push(Buffer.from(`${fieldHead(boundary, field.name)}${field.value}\r\n`));
	}
	for (const file of files) {
		chunks.push(Buffer.from(fileHead(boundary, file)), file.data, Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(closing(boundary)));
	const unsafeKey = findUnsafeFormKey([
		...fields,
		...files.map((file) => ({ name: file.name, value: '' })),
	]);
	return {
		body: Buffer.concat(chunks),
		contentType: `multipart/form-data; boundary=${boundary}`,
		...(unsafeKey === undefined ? {} : { unsafeKey }),
	};
}
