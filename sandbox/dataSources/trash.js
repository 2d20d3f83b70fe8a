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

/** The caller's organization, whose trash the caller reaches (401 without a caller). */
function organizationOf(principal) {
	if (!principal) throw new HttpError(401, "The auth_token provided doesn't belong to any user.");
	return principal.organizationId;
}

/** Takes a deleted data source of the caller's organization out of the trash (404 if none). */
function takeDeleted(state, principal, raw, notFoundMessage) {
	const organizationId = organizationOf(principal);
	const id = Number(raw);
	const deleted = trashOf(state);
	const index = deleted.findIndex(
		(item) => item.dataSource.id === id && item.dataSource.organizationId === organizationId,
	);
	if (!Number.isInteger(id) || index === -1) throw notFound(notFoundMessage);
	return deleted.splice(index, 1)[0];
}

/** Restores a deleted data source of the caller's organization (404 if there is none). */
function restore(state, principal, raw) {
	const { dataSource, table } = takeDeleted(
		state,
		principal,
		raw,
		`No deleted data source ${raw} to restore`,
	);
	if (table) store.tables(state).set(dataSource.id, table);
	dataSource.updatedAt = iso(state.now());
	state.dataSources.push(dataSource);
	return dataSource;
}

/** The deleted data sources of the caller's organization, each with its `deletedAt`. */
function deletedOf(state, principal) {
	const organizationId = organizationOf(principal);
	return trashOf(state)
		.filter((item) => item.dataSource.organizationId === organizationId)
		.map((item) => ({ ...item.dataSource, deletedAt: item.deletedAt }));
}

/** Removes a deleted data source for good, with its entries and versions (404 if there is none). */
function purge(state, principal, raw) {
	return takeDeleted(state, principal, raw, `No deleted data source ${raw}`).dataSource.id;
}

module.exports = { trash, restore, deletedOf, purge };
