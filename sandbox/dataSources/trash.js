'use strict';

const { HttpError, notFound } = require('../http');
const { iso } = require('../state');
const store = require('./store');

/**
 * Deleted data sources stay restorable (`POST /v1/data-sources/:id/restore`, which the platform's
 * own editor uses; not in the public docs): a delete moves the record, its entries and versions
 * out of sight, a restore brings all of it back unchanged.
 */

function trashOf(state) {
	if (!state.deletedDataSources) state.deletedDataSources = [];
	return state.deletedDataSources;
}

/** Deletes a data source: it disappears from every call but restore. */
function trash(state, dataSource) {
	state.dataSources = state.dataSources.filter((ds) => ds.id !== dataSource.id);
	const tables = store.tables(state);
	const table = tables.get(dataSource.id);
	tables.delete(dataSource.id);
	trashOf(state).push({ dataSource, table, deletedAt: iso(state.now()) });
}

/** Restores a deleted data source of the caller's organization (404 if there is none). */
function restore(state, principal, raw) {
	if (!principal) throw new HttpError(401, "The auth_token provided doesn't belong to any user.");
	const id = Number(raw);
	const deleted = trashOf(state);
	const index = deleted.findIndex(
		(item) =>
			item.dataSource.id === id && item.dataSource.organizationId === principal.organizationId,
	);
	if (!Number.isInteger(id) || index === -1)
		throw notFound(`No deleted data source ${raw} to restore`);
	const [{ dataSource, table }] = deleted.splice(index, 1);
	if (table) store.tables(state).set(dataSource.id, table);
	dataSource.updatedAt = iso(state.now());
	state.dataSources.push(dataSource);
	return dataSource;
}

/** The deleted data sources of the caller's organization, each with its `deletedAt`. */
function deletedOf(state, principal) {
	if (!principal) throw new HttpError(401, "The auth_token provided doesn't belong to any user.");
	return trashOf(state)
		.filter((item) => item.dataSource.organizationId === principal.organizationId)
		.map((item) => ({ ...item.dataSource, deletedAt: item.deletedAt }));
}

/** Removes a deleted data source for good, with its entries and versions (404 if there is none). */
function purge(state, principal, raw) {
	if (!principal) throw new HttpError(401, "The auth_token provided doesn't belong to any user.");
	const id = Number(raw);
	const deleted = trashOf(state);
	const index = deleted.findIndex(
		(item) =>
			item.dataSource.id === id && item.dataSource.organizationId === principal.organizationId,
	);
	if (!Number.isInteger(id) || index === -1) throw notFound(`No deleted data source ${raw}`);
	deleted.splice(index, 1);
	return id;
}

module.exports = { trash, restore, deletedOf, purge };
