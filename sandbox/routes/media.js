'use strict';

const { HttpError, badRequest, isObject } = require('../http');
const { requireApp, requireOrganization } = require('../access');
const { iso } = require('../state');
const { readingsOf } = require('../dataSources/readings');
const {
	effectiveRules,
	fileAccess,
	fileView,
	foldersOf,
	isPublic,
	mayAccess,
	requireFile,
	requireFolder,
	storeFile,
} = require('../media/files');
const { checkFileRules } = require('../media/rules');

/**
 * The media library (`Fliplet/fliplet-cli: docs/REST-API/fliplet-media.md`, `docs/File-security.md`,
 * `docs/API/fliplet-media.md`): list an app's, an organization's or a folder's folders and files,
 * create and delete folders, upload, read, stream and delete files, and read and set access rules.
 * The platform documents no rate limit for these routes, so they have none here.
 */

const live = (record) => !record.deletedAt;

/** Where a list, an upload or a new folder goes: a folder, an app's root or an organization's. */
function mediaTarget(ctx, given) {
	const { state, principal } = ctx;
	if (given.folderId !== undefined && given.folderId !== null && given.folderId !== '') {
		const folder = requireFolder(state, given.folderId);
		if (!principal || principal.organizationId !== folder.organizationId) {
			throw new HttpError(404, 'Folder not found');
		}
		return { folder, appId: folder.appId, organizationId: folder.organizationId };
	}
	if (given.appId !== undefined && given.appId !== null && given.appId !== '') {
		const { draft, publishedId } = requireApp(state, principal, given.appId);
		return {
			appIds: [draft.id, publishedId],
			appId: Number(given.appId),
			organizationId: draft.organizationId,
		};
	}
	if (
		given.organizationId !== undefined &&
		given.organizationId !== null &&
		given.organizationId !== ''
	) {
		const organization = requireOrganization(state, principal, given.organizationId);
		return { appId: null, organizationId: organization.id };
	}
	throw badRequest('Give the context: "folderId", "appId" or "organizationId".');
}

/** The record the access rules of a target are read on (an app's root has no record of its own). */
const ruleHolder = (target) =>
	target.folder ?? {
		appId: target.appId,
		organizationId: target.organizationId,
		accessRules: null,
		parentId: null,
	};

function requireAccess(ctx, record, kind, type, message) {
	if (!mayAccess(ctx.state, record, kind, ctx.principal, type)) throw fileAccess(message);
}

/**
 * A folder as the API answers it: its parent named `parentId`, or, reading `mediaFolderParent:
 * parentFolderId`, `parentFolderId` in its place.
 */
function folderView(state, { accessRules: _rules, ...folder }) {
	if (readingsOf(state).mediaFolderParent !== 'parentFolderId') return folder;
	const { parentId, ...rest } = folder;
	return { ...rest, parentFolderId: parentId };
}

function listMedia(ctx) {
	const { state, query } = ctx;
	if (
		query.folderId !== undefined &&
		query.organizationId === undefined &&
		readingsOf(state).mediaFolderList === 'withOrganization'
	) {
		throw badRequest('Give "organizationId" with "folderId".');
	}
	const target = mediaTarget(ctx, query);
	if (target.folder) {
		if (
			query.organizationId !== undefined &&
			Number(query.organizationId) !== target.organizationId
		) {
			throw new HttpError(404, 'Folder not found');
		}
		requireAccess(ctx, target.folder, 'folder', 'read');
	}
	// Reading `belowRoot`, an app's or an organization's list also holds what is below its root.
	const belowRoot = !target.folder && readingsOf(state).mediaList === 'belowRoot';
	const inTarget = (appId, parent) =>
		target.folder
			? parent === target.folder.id
			: (belowRoot || parent == null) &&
				(target.appIds ? target.appIds.includes(appId) : belowRoot || appId == null);
	const folders = [...foldersOf(state).values()].filter(
		(folder) =>
			live(folder) &&
			folder.organizationId === target.organizationId &&
			inTarget(folder.appId, folder.parentId),
	);
	const files = [...state.media.values()].filter(
		(file) =>
			live(file) &&
			file.organizationId === target.organizationId &&
			inTarget(file.appId, file.mediaFolderId),
	);
	const folderAnswer = (folder) => folderView(state, folder);
	return { body: { folders: folders.map(folderAnswer), files: files.map(fileView) } };
}

function createFolder(ctx) {
	const body = isObject(ctx.body) ? ctx.body : {};
	if (typeof body.name !== 'string' || !body.name.trim()) {
		throw badRequest('A folder needs a "name".');
	}
	const target = mediaTarget(ctx, {
		folderId: body.parentId,
		appId: body.parentId == null ? body.appId : undefined,
		organizationId: body.parentId == null && body.appId == null ? body.organizationId : undefined,
	});
	if (body.organizationId != null && Number(body.organizationId) !== target.organizationId) {
		throw badRequest('The parent folder or app belongs to another organization.');
	}
	requireAccess(
		ctx,
		ruleHolder(target),
		'folder',
		'create',
		'You do not have permission to create folders here',
	);
	const at = iso(ctx.state.now());
	const folder = {
		id: ctx.state.nextId++,
		name: body.name,
		parentId: target.folder ? target.folder.id : null,
		organizationId: target.organizationId,
		updatedAt: at,
		createdAt: at,
		appId: target.appId,
		deletedAt: null,
		accessRules: null,
	};
	foldersOf(ctx.state).set(folder.id, folder);
	return { body: folderView(ctx.state, folder) };
}

function uploadFiles(ctx) {
	const multipart = isObject(ctx.body) ? ctx.body.multipart : undefined;
	if (!isObject(multipart)) throw badRequest('Upload the files as a multipart body.');
	const { fields, files } = multipart;
	if (!files.length) throw badRequest('The multipart body holds no file.');
	const given = (name) => ctx.query[name] ?? fields[name];
	const target = mediaTarget(ctx, {
		folderId: given('folderId'),
		appId: given('appId'),
		organizationId: given('organizationId'),
	});
	requireAccess(
		ctx,
		ruleHolder(target),
		'folder',
		'create',
		'You do not have permission to create files here',
	);
	const stored = files.map((part, index) => {
		const index_ = /\[(\d+)\]$/.exec(part.name)?.[1] ?? String(index);
		const name = fields[`name[${index_}]`] || part.fileName;
		return storeFile(ctx.state, ctx.sandbox.urls(), {
			name,
			contentType: part.mimeType,
			data: part.data,
			appId: target.appId,
			organizationId: target.organizationId,
			mediaFolderId: target.folder ? target.folder.id : null,
			userId: ctx.principal?.userId,
		});
	});
	return { status: 201, body: { files: stored.map(fileView) } };
}

/** Image transforms of the contents route (`docs/REST-API/fliplet-media.md`, `docs/API/fliplet-media.md`). */
const SIZE_PRESETS = ['small', 'medium', 'large', 'xlarge', 'xxlarge', 'xxxlarge'];

function checkTransform(query) {
	const { size, format, quality } = query;
	if (size !== undefined && !SIZE_PRESETS.includes(size) && !/^\d*[>!^]\d*\??$/.test(size)) {
		throw badRequest(`"size" is one of ${SIZE_PRESETS.join(', ')} or a geometry such as 640>480.`);
	}
	if (format !== undefined && !['jpg', 'webp'].includes(format)) {
		throw badRequest('"format" is jpg or webp.');
	}
	if (quality !== undefined && !(/^\d+$/.test(quality) && +quality >= 1 && +quality <= 100)) {
		throw badRequest('"quality" is a number from 1 to 100.');
	}
	return [size && `size=${size}`, format && `format=${format}`, quality && `quality=${quality}`]
		.filter(Boolean)
		.join('&');
}

/**
 * The file's bytes to whoever its rules let read it; a refusal is the platform's 401
 * `{"error": "file.access"}`. Reading `mediaContents: redirect`, a public file is sent to its CDN
 * address instead (unless an image transform is asked for).
 */
function fileContents(ctx) {
	const file = requireFile(ctx.state, ctx.params.id);
	requireAccess(ctx, file, 'file', 'read');
	const transform = checkTransform(ctx.query);
	if (
		!transform &&
		isPublic(ctx.state, file) &&
		readingsOf(ctx.state).mediaContents === 'redirect'
	) {
		return { status: 302, headers: { Location: `${ctx.sandbox.urls().cdn}/${file.path}` } };
	}
	return contentsAnswer(ctx.state, file, transform);
}

/**
 * The contents route's answer: the file, with what the platform would have done to it. The sandbox
 * cannot resize or convert images: it says what it was asked (or, reading `contentsImageSize:
 * xlarge`, the default size it applies to an image asked for without one) and sends the file.
 */
function contentsAnswer(state, file, transform) {
	const headers = { 'Content-Type': file.contentType };
	const defaultSize =
		!/(^|&)size=/.test(transform) &&
		/^image\//.test(file.contentType) &&
		readingsOf(state).contentsImageSize === 'xlarge';
	const applied = defaultSize ? ['size=xlarge', transform].filter(Boolean).join('&') : transform;
	if (applied) headers['X-Sandbox-Transform'] = applied;
	return { body: file.data, headers };
}

function deleteFile(ctx) {
	const file = requireFile(ctx.state, ctx.params.id);
	requireAccess(ctx, file, 'file', 'delete', 'You do not have permission to delete this file');
	file.deletedAt = iso(ctx.state.now());
	return { status: 200 };
}

/** Deletes a folder with its subfolders and their files. */
function deleteFolder(ctx) {
	const folder = requireFolder(ctx.state, ctx.params.id);
	if (!ctx.principal || ctx.principal.organizationId !== folder.organizationId) {
		throw new HttpError(404, 'Folder not found');
	}
	requireAccess(
		ctx,
		folder,
		'folder',
		'delete',
		'You do not have permission to delete this folder',
	);
	const at = iso(ctx.state.now());
	const gone = new Set([folder.id]);
	for (let grew = true; grew; ) {
		grew = false;
		for (const other of foldersOf(ctx.state).values()) {
			if (!gone.has(other.id) && gone.has(other.parentId)) {
				gone.add(other.id);
				grew = true;
			}
		}
	}
	for (const id of gone) foldersOf(ctx.state).get(id).deletedAt ??= at;
	for (const file of ctx.state.media.values()) {
		if (gone.has(file.mediaFolderId)) file.deletedAt ??= at;
	}
	return { status: 200 };
}

/** Access rules are managed with a Studio user token of the resource's organization. */
function requireStudio(ctx, organizationId) {
	const { principal } = ctx;
	if (principal?.kind !== 'user' || principal.organizationId !== organizationId) {
		throw new HttpError(
			403,
			'Managing access rules needs a Studio user token of the organization.',
		);
	}
}

function rulesRoutes(kind, find) {
	const path = `/v1/media/${kind === 'app' ? 'apps' : `${kind}s`}/:id/accessRules`;
	return [
		{
			method: 'GET',
			path,
			handler: (ctx) => {
				const { record, organizationId, read } = find(ctx);
				requireStudio(ctx, organizationId);
				if (kind === 'app') return { body: { accessRules: read() } };
				const { rules, from } = effectiveRules(ctx.state, record, kind);
				return {
					body: {
						accessRules: record.accessRules ?? null,
						effectiveRules: rules,
						inheritedFrom: from,
					},
				};
			},
		},
		{
			method: 'PUT',
			path,
			handler: (ctx) => {
				const { organizationId, write } = find(ctx);
				requireStudio(ctx, organizationId);
				const body = isObject(ctx.body) ? ctx.body : {};
				if (!('accessRules' in body)) throw badRequest('Send {"accessRules": [...]} or null.');
				const rules = checkFileRules(body.accessRules, kind);
				write(rules);
				return { body: { accessRules: rules } };
			},
		},
	];
}

const routes = [
	{ method: 'GET', path: '/v1/media', handler: listMedia },
	{ method: 'POST', path: '/v1/media/folders', handler: createFolder },
	{ method: 'DELETE', path: '/v1/media/folders/:id', handler: deleteFolder },
	{ method: 'POST', path: '/v1/media/files', handler: uploadFiles },
	...['/v1/media/files/:id/contents', '/v1/media/files/:id/contents/:fileName'].map((path) => ({
		method: 'GET',
		path,
		// Public files need no token; the token may also come as ?auth_token= (as apps send it).
		auth: 'optional',
		queryToken: true,
		handler: fileContents,
	})),
	{
		method: 'GET',
		path: '/v1/media/files/:id',
		handler: (ctx) => {
			const file = requireFile(ctx.state, ctx.params.id);
			requireAccess(ctx, file, 'file', 'read');
			return { body: fileView(file) };
		},
	},
	{ method: 'DELETE', path: '/v1/media/files/:id', handler: deleteFile },
	...rulesRoutes('file', (ctx) => {
		const file = requireFile(ctx.state, ctx.params.id);
		return {
			record: file,
			organizationId: file.organizationId,
			write: (rules) => {
				file.accessRules = rules;
			},
		};
	}),
	...rulesRoutes('folder', (ctx) => {
		const folder = requireFolder(ctx.state, ctx.params.id);
		return {
			record: folder,
			organizationId: folder.organizationId,
			write: (rules) => {
				folder.accessRules = rules;
			},
		};
	}),
	...rulesRoutes('app', (ctx) => {
		const { draft } = requireApp(ctx.state, ctx.principal, ctx.params.id);
		ctx.state.appMediaRules ??= new Map();
		return {
			organizationId: draft.organizationId,
			read: () => ctx.state.appMediaRules.get(draft.id) ?? null,
			write: (rules) => {
				if (rules === null) ctx.state.appMediaRules.delete(draft.id);
				else ctx.state.appMediaRules.set(draft.id, rules);
			},
		};
	}),
];

module.exports = { routes, checkTransform, contentsAnswer };
