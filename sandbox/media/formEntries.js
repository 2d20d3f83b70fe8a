'use strict';

const store = require('../dataSources/store');
const { storeFile } = require('./files');

/**
 * Adds an entry as the platform's form builder stores one with files (a multipart insert through
 * its JS API), straight into the sandbox's state: each file is stored in the data source's app and
 * its column holds a list of URLs (a form's file field) and `<column>MediaFileId` their ids. For
 * set-ups that cannot wait for a request (the end-to-end tier's `setup`), and a started sandbox.
 * @param {any} sandbox
 * @param {{ dataSourceId: number, data: Record<string, unknown>,
 *   files: Array<{ column: string, name: string, contentType: string, data: Buffer }> }} entry
 */
function addFormEntry(sandbox, { dataSourceId, data, files }) {
	const { state } = sandbox;
	const dataSource = state.dataSources.find((candidate) => candidate.id === dataSourceId);
	const columns = { ...data };
	const stored = [];
	for (const file of files) {
		const record = storeFile(state, sandbox.urls(), {
			name: file.name,
			contentType: file.contentType,
			data: file.data,
			appId: dataSource.appId ?? null,
			organizationId: dataSource.organizationId,
		});
		stored.push(record);
		columns[file.column] = [...(columns[file.column] ?? []), record.url];
		columns[`${file.column}MediaFileId`] = [
			...(columns[`${file.column}MediaFileId`] ?? []),
			record.id,
		];
	}
	const entry = store.newEntry(state, dataSource, columns);
	for (const record of stored) record.dataSourceEntryId = entry.id;
	store.appendEntries(state, dataSourceId, [entry]);
	return entry;
}

module.exports = { addFormEntry };
