'use strict';

const { badRequest, isObject } = require('../http');
const { requireFolder, storeFile } = require('./files');

/**
 * The entry data of a multipart insert or single-entry update, as the platform's JS API sends it
 * (`Fliplet/fliplet-cli: docs/API/datasources/file-attachments.md`): text parts are columns, each
 * file part is stored and its column gets the file's URL and `<column>MediaFileId` its id. A part
 * named `<column>[]` (or several parts of one name) makes the column a list of URLs (and ids), and
 * a file for a column that holds a list is added to it. The optional `_flSchema` part (JSON)
 * sets per column `append` (false: a list column is replaced, otherwise new files are added to the
 * list it holds), `name` (the stored file name) and `mediaFolderId`; the `folderId` query
 * parameter is the folder of every file otherwise. Returns the data and the stored files.
 * @param {any} ctx the route's context
 * @param {any} dataSource
 * @param {Record<string, unknown>} [current] the entry's data before an update
 */
function multipartEntryData(ctx, dataSource, current = {}) {
	const { fields, files } = ctx.body.multipart;
	const { _flSchema: schemaText, ...text } = fields;
	const schema = schemaText === undefined ? {} : parseSchema(schemaText);
	const data = { ...text };
	const byColumn = new Map();
	for (const part of files) {
		const list = part.name.endsWith('[]');
		const column = list ? part.name.slice(0, -2) : part.name;
		const group = byColumn.get(column) ?? { list: false, parts: [] };
		group.list ||= list;
		group.parts.push(part);
		byColumn.set(column, group);
	}
	const stored = [];
	for (const [column, { list, parts }] of byColumn) {
		const options = isObject(schema[column]) ? schema[column] : {};
		const folderId = options.mediaFolderId ?? ctx.query.folderId;
		if (folderId != null && folderId !== '') requireFolder(ctx.state, folderId);
		const records = parts.map((part) =>
			storeFile(ctx.state, ctx.sandbox.urls(), {
				name: typeof options.name === 'string' && options.name ? options.name : part.fileName,
				contentType: part.mimeType,
				data: part.data,
				appId: dataSource.appId ?? null,
				organizationId: dataSource.organizationId,
				mediaFolderId: folderId == null || folderId === '' ? null : Number(folderId),
				userId: ctx.principal?.userId,
			}),
		);
		stored.push(...records);
		const urls = records.map((file) => file.url);
		const ids = records.map((file) => file.id);
		const keep = options.append !== false;
		if (!list && records.length === 1 && !(keep && Array.isArray(current[column]))) {
			data[column] = urls[0];
			data[`${column}MediaFileId`] = ids[0];
			continue;
		}
		const before = (value) => (keep && Array.isArray(value) ? value : []);
		data[column] = [...before(current[column]), ...urls];
		data[`${column}MediaFileId`] = [...before(current[`${column}MediaFileId`]), ...ids];
	}
	return { data, stored };
}

function parseSchema(text) {
	try {
		const schema = JSON.parse(text);
		if (isObject(schema)) return schema;
	} catch {
		// Answered below.
	}
	throw badRequest('"_flSchema" must be a JSON object of column to file options.');
}

module.exports = { multipartEntryData };
