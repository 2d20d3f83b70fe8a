'use strict';

const { tokenRegion } = require('../state');
const { checkTransform, contentsAnswer } = require('../routes/media');
const { fileAtPath, isPublic, mayAccess } = require('./files');

/**
 * The CDN-like host: a second server of the sandbox (its own port, so its own origin, as
 * cdn.fliplet.com is not api.fliplet.com) serving public files by their storage path, with no
 * token. It answers as a storage bucket does: 404 for a path that holds nothing, 403 for a file
 * that is not public (encrypted, or its rules grant no public read). Every request is recorded in
 * `sandbox.cdnRequests`, headers included, so a test can show no token ever reached it.
 *
 * It also plays the API's file host (`cdn.api.fliplet.com`), which serves the API's contents route
 * with the token in the URL, as Studio's file manager reads files there
 * (`Fliplet/fliplet-widget-file-manager: js/interface.js`): `/v1/media/files/<id>/contents[/<name>]`
 * with `?auth_token=`, under the file's access rules as on the API host; without a token that the
 * rules let in, the platform's 401 `{"error": "file.access"}`.
 */
const CONTENTS_ROUTE = /^\/v1\/media\/files\/(\d+)\/contents(?:\/[^/]*)?$/;

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
	const answer = (status, body, type, headers = {}) => {
		record.status = status;
		res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': body.length });
		res.end(method === 'HEAD' ? undefined : body);
	};
	// The request body (none is expected) is read and dropped, so the connection can be reused.
	req.resume();
	if (method !== 'GET' && method !== 'HEAD') {
		return answer(405, xmlError('MethodNotAllowed', 'Only GET and HEAD'), 'application/xml');
	}
	const contents = CONTENTS_ROUTE.exec(url.pathname);
	if (contents) {
		const { status, body, headers } = contentsWithTokenInUrl(sandbox, Number(contents[1]), url);
		const type = headers['Content-Type'] ?? 'application/json';
		const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
		return answer(status, bytes, type, headers);
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

/** The contents route as the API's file host answers it: the token only from `?auth_token=`. */
function contentsWithTokenInUrl(sandbox, id, url) {
	const { state } = sandbox;
	const token = url.searchParams.get('auth_token') ?? '';
	const known = token ? state.tokens.get(token) : undefined;
	const principal = known && tokenRegion(token) === state.region ? known : undefined;
	const file = state.media.get(id);
	if (!file || file.deletedAt)
		return { status: 404, body: { message: 'File not found' }, headers: {} };
	if (!mayAccess(state, file, 'file', principal, 'read')) {
		return {
			status: 401,
			body: { message: 'You do not have permission to access this file', error: 'file.access' },
			headers: {},
		};
	}
	let transform;
	try {
		transform = checkTransform(Object.fromEntries(url.searchParams.entries()));
	} catch (error) {
		return { status: 400, body: error.body ?? { message: error.message }, headers: {} };
	}
	return { status: 200, ...contentsAnswer(state, file, transform) };
}

module.exports = { handleCdn };
