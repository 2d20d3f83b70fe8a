'use strict';

const { fileAtPath, isPublic } = require('./files');

/**
 * The CDN-like host: a second server of the sandbox (its own port, so its own origin, as
 * cdn.fliplet.com is not api.fliplet.com) serving public files by their storage path, with no
 * token. It answers as a storage bucket does: 404 for a path that holds nothing, 403 for a file
 * that is not public (encrypted, or its rules grant no public read). Every request is recorded in
 * `sandbox.cdnRequests`, headers included, so a test can show no token ever reached it.
 */

const xmlError = (code, message) =>
	Buffer.from(
		`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
	);

/**
 * @param {any} sandbox
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function handleCdn(sandbox, req, res) {
	const url = new URL(req.url ?? '/', 'http://cdn.local');
	const method = (req.method ?? 'GET').toUpperCase();
	const record = {
		method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams.entries()),
		headers: { ...req.headers },
		status: 0,
		at: Date.now(),
	};
	sandbox.cdnRequests.push(record);
	const answer = (status, body, type) => {
		record.status = status;
		res.writeHead(status, { 'Content-Type': type, 'Content-Length': body.length });
		res.end(method === 'HEAD' ? undefined : body);
	};
	// The request body (none is expected) is read and dropped, so the connection can be reused.
	req.resume();
	if (method !== 'GET' && method !== 'HEAD') {
		return answer(405, xmlError('MethodNotAllowed', 'Only GET and HEAD'), 'application/xml');
	}
	let path;
	try {
		path = decodeURIComponent(url.pathname.slice(1));
	} catch {
		return answer(400, xmlError('InvalidURI', 'The path is not valid'), 'application/xml');
	}
	const file = fileAtPath(sandbox.state, path);
	if (!file)
		return answer(
			404,
			xmlError('NoSuchKey', 'The specified key does not exist.'),
			'application/xml',
		);
	if (!isPublic(sandbox.state, file)) {
		return answer(403, xmlError('AccessDenied', 'Access Denied'), 'application/xml');
	}
	return answer(200, file.data, file.contentType);
}

module.exports = { handleCdn };
