'use strict';

/**
 * Form-data clients escape only `"`, CR and LF in a quoted file name (as %22, %0D, %0A); every
 * other `%` is part of the name, as a server's multipart parser keeps it.
 * @param {string} name
 */
const unescapeName = (name) =>
	name.replace(/%(22|0D|0A)/gi, (_match, hex) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Parses a multipart/form-data body into text fields and files.
 * @param {Buffer} body
 * @param {string} contentType
 * @returns {{ fields: Record<string, string>, files: Array<{ name: string, fileName: string, mimeType: string, data: Buffer }> }}
 */
function parseMultipart(body, contentType) {
	const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!match) throw new Error('multipart body without boundary');
	const boundary = Buffer.from(`--${match[1] || match[2]}`);
	/** @type {Record<string, string>} */
	const fields = {};
	const files = [];
	let position = body.indexOf(boundary);
	while (position !== -1) {
		const start = position + boundary.length;
		if (body.slice(start, start + 2).toString() === '--') break;
		const next = body.indexOf(boundary, start);
		if (next === -1) break;
		const part = body.slice(start + 2, next - 2); // skip CRLF after boundary and before the next
		const headerEnd = part.indexOf('\r\n\r\n');
		const headerText = part.slice(0, headerEnd).toString('utf8');
		const data = part.slice(headerEnd + 4);
		const name = /name="([^"]*)"/i.exec(headerText)?.[1] ?? '';
		const fileName = /filename="([^"]*)"/i.exec(headerText)?.[1];
		const mimeType =
			/content-type:\s*([^\r\n]+)/i.exec(headerText)?.[1]?.trim() ?? 'application/octet-stream';
		if (fileName !== undefined)
			files.push({ name, fileName: unescapeName(fileName), mimeType, data });
		else fields[name] = data.toString('utf8');
		position = next;
	}
	return { fields, files };
}

module.exports = { parseMultipart };
