'use strict';

const crypto = require('node:crypto');

const { HttpError, notFound } = require('../http');
const { findAppPair } = require('../access');
const { iso } = require('../state');
const { grantsPublicRead, rulesGrant } = require('./rules');

/**
 * The media library: files (state.media, id -> record, the bytes kept beside the API fields) and
 * folders (state.mediaFolders), with where each file is served:
 * - a public file (its effective rules grant everyone read, and it is not encrypted) on the
 *   CDN-like host, `<cdn>/<path>`, as the platform serves ordinary files from cdn.fliplet.com;
 * - every file on the API's contents route, `<api>/v1/media/files/<id>/contents/<name>`, the URL a
 *   private or encrypted file gets (`Fliplet/fliplet-cli: docs/File-security.md`,
 *   `docs/API/fliplet-media.md`), readable with a token its rules let in.
 */

/** "You do not have permission…": the 401 the platform answers a read its rules refuse. */
const fileAccess = (message = 'You do not have permission to access this file') =>
	new HttpError(401, message, { error: 'file.access' });

/** Extensions the platform's upload validator refuses (`docs/API/datasources/file-attachments.md`). */
const REFUSED_EXTENSIONS = new Set(
	'exe msi dll bat cmd sh bash jar bin sys js rb py php ts pl cgi so drv vxd zip tar 7z rar gz iso'.split(
		' ',
	),
);

const extensionOf = (name) => {
	const match = /\.([^./\\]+)$/.exec(name);
	return match ? match[1].toLowerCase() : '';
};

/** 422 for a file the platform's validator refuses, as it answers one (the same doc). */
function checkUploadable(fileName) {
	if (REFUSED_EXTENSIONS.has(extensionOf(fileName))) {
		throw new HttpError(422, `Files of type .${extensionOf(fileName)} are not allowed`);
	}
}

/** Folder records (created on first use, so a state without the media seed still works). */
function foldersOf(state) {
	state.mediaFolders ??= new Map();
	return state.mediaFolders;
}

/** Per app (draft id) its root media access rules: the last fallback of every file and folder. */
function appRulesOf(state, appId) {
	const pair = appId == null ? undefined : findAppPair(state, appId);
	return pair ? state.appMediaRules?.get(pair.draft.id) : undefined;
}

/**
 * The rules that apply to a file or folder and where they come from: its own, else its parent
 * folders' (nearest first), else its app's root rules, else none (`docs/File-security.md`).
 * @returns {{ rules: any[] | null, from: any }}
 */
function effectiveRules(state, record, kind) {
	if (record.accessRules) return { rules: record.accessRules, from: null };
	let folderId = kind === 'file' ? record.mediaFolderId : record.parentId;
	const seen = new Set();
	while (folderId != null && !seen.has(folderId)) {
		seen.add(folderId);
		const folder = foldersOf(state).get(folderId);
		if (!folder) break;
		if (folder.accessRules) {
			return {
				rules: folder.accessRules,
				from: { type: 'folder', folderId: folder.id, folderName: folder.name },
			};
		}
		folderId = folder.parentId;
	}
	const appRules = appRulesOf(state, record.appId);
	if (appRules) return { rules: appRules, from: { type: 'app', appId: record.appId } };
	return { rules: null, from: null };
}

/** Public: readable by everyone, so served on the CDN; an encrypted file never is. */
function isPublic(state, file) {
	return !file.isEncrypted && grantsPublicRead(effectiveRules(state, file, 'file').rules);
}

/**
 * Whether the principal may do `type` on a file or folder: organization and Studio user tokens of
 * its organization manage its media; everyone else (app tokens, no token) passes its rules. An
 * encrypted file is never read without a token ("always private", even under a public rule).
 */
function mayAccess(state, record, kind, principal, type) {
	if (principal && principal.kind !== 'app' && principal.organizationId === record.organizationId)
		return true;
	if (kind === 'file' && record.isEncrypted && !principal) return false;
	return rulesGrant(state, effectiveRules(state, record, kind).rules, principal, type);
}

/** A file that exists and is not deleted, or 404. */
function requireFile(state, rawId) {
	const file = state.media.get(Number(rawId));
	if (!file || file.deletedAt) throw notFound('File not found');
	return file;
}

/** A folder that exists and is not deleted, or 404. */
function requireFolder(state, rawId) {
	const folder = foldersOf(state).get(Number(rawId));
	if (!folder || folder.deletedAt) throw notFound('Folder not found');
	return folder;
}

/** The URL a file is served on: the CDN for a public one, the API's contents route otherwise. */
function urlOf(state, file, urls) {
	return isPublic(state, file)
		? `${urls.cdn}/${file.path}`
		: `${urls.api}/v1/media/files/${file.id}/contents/${encodeURIComponent(file.name)}`;
}

/**
 * Stores an uploaded file (an entry's file part or a media upload) and returns its record. It is
 * encrypted when its organization encrypts files (SPEC: "encrypted when the organization enables
 * it"); its storage path is named as the platform's are (`apps/<app>/<hash>-<id>.<ext>`).
 * @param {any} state
 * @param {{ api: string, cdn: string }} urls
 * @param {{ name: string, contentType: string, data: Buffer, appId: number | null,
 *   organizationId: number, mediaFolderId?: number | null, userId?: number,
 *   dataSourceEntryId?: number | null }} upload
 */
function storeFile(state, urls, upload) {
	checkUploadable(upload.name);
	const id = state.nextId++;
	const at = iso(state.now());
	const hash = crypto.createHash('md5').update(`${id}:${upload.name}`).digest('hex').slice(0, 24);
	const extension = extensionOf(upload.name);
	const owner =
		upload.appId != null ? `apps/${upload.appId}` : `organizations/${upload.organizationId}`;
	const file = {
		id,
		name: upload.name,
		contentType: upload.contentType || 'application/octet-stream',
		path: `${owner}/${hash}-${id}${extension ? `.${extension}` : ''}`,
		url: '',
		thumbnail: null,
		size: null,
		metadata: {
			size: upload.data.length,
			checksum: crypto.createHash('md5').update(upload.data).digest('hex'),
		},
		isEncrypted: state.encryptedFileOrganizations?.has(upload.organizationId) === true,
		versions: {},
		isOrganizationMedia: upload.appId == null,
		accessRules: null,
		createdAt: at,
		updatedAt: at,
		deletedAt: null,
		appId: upload.appId,
		dataSourceEntryId: upload.dataSourceEntryId ?? null,
		dataTrackingId: null,
		mediaFolderId: upload.mediaFolderId ?? null,
		userId: upload.userId ?? null,
		organizationId: upload.organizationId,
	};
	// The bytes stay out of every answer (see fileView) and of JSON dumps of the state.
	Object.defineProperty(file, 'data', { value: upload.data, enumerable: false, writable: true });
	file.url = urlOf(state, file, urls);
	state.media.set(id, file);
	return file;
}

/** A file as the API answers it: its fields without the bytes. */
function fileView(file) {
	return { ...file };
}

/** The public file stored at a CDN path, if any. */
function fileAtPath(state, path) {
	for (const file of state.media.values()) if (file.path === path && !file.deletedAt) return file;
	return undefined;
}

module.exports = {
	checkUploadable,
	effectiveRules,
	fileAccess,
	fileAtPath,
	fileView,
	foldersOf,
	isPublic,
	mayAccess,
	requireFile,
	requireFolder,
	storeFile,
	urlOf,
};
