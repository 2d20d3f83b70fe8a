'use strict';

const { iso } = require('../state');
const { snapshotOf, snapshotEntries, setEntries } = require('./store');

/** Snapshots live beside the version records, so the public records stay as the API shows them. */
function snapshots(state) {
	if (!state.versionSnapshots) state.versionSnapshots = new Map();
	return state.versionSnapshots;
}

function userOf(state, principal) {
	const user = state.users.find((candidate) => candidate.id === principal?.userId);
	const id = principal?.userId ?? 0;
	return user
		? { id, firstName: user.firstName, lastName: user.lastName, fullName: user.fullName }
		: {
				id,
				firstName: principal?.name ?? 'Anonymous',
				lastName: '',
				fullName: principal?.name ?? 'Anonymous',
			};
}

/** Records the current content of a data source as a version (entries are shared, not copied). */
function snapshot(state, dataSource, action, principal) {
	const entries = snapshotOf(state, dataSource.id);
	const at = iso(state.now());
	const id = state.nextId++;
	const version = {
		id,
		dataSourceId: dataSource.id,
		data: {
			action,
			columns: [...(dataSource.columns ?? [])],
			entries: { count: entries.size, key: `datasource-versions/${dataSource.id}/${id}.json` },
		},
		pageId: null,
		userId: principal?.userId ?? 0,
		user: userOf(state, principal),
		createdAt: at,
		updatedAt: at,
	};
	state.versions.push(version);
	snapshots(state).set(id, entries);
	return version;
}

function versionsOf(state, dataSourceId) {
	return state.versions.filter((version) => version.dataSourceId === dataSourceId);
}

/**
 * The versions as the list call answers them: newest first, as the platform lists them (its data
 * source editor reads `versions[0]` as the current one). Ids only grow, so the newest has the
 * highest id.
 */
function newestFirst(state, dataSourceId) {
	return versionsOf(state, dataSourceId).sort((a, b) => b.id - a.id);
}

function versionEntries(state, version) {
	return snapshotEntries(snapshots(state).get(version.id)).map((entry, order) => ({
		...entry,
		order,
	}));
}

/** Brings the data source back to a version; the current content is kept as `pre-restore`. */
function restore(state, dataSource, version, principal) {
	snapshot(state, dataSource, 'pre-restore', principal);
	setEntries(state, dataSource.id, snapshotEntries(snapshots(state).get(version.id)));
	dataSource.columns = [...version.data.columns];
	dataSource.updatedAt = iso(state.now());
}

function dropVersions(state, dataSourceId) {
	for (const version of versionsOf(state, dataSourceId)) snapshots(state).delete(version.id);
	state.versions = state.versions.filter((version) => version.dataSourceId !== dataSourceId);
}

module.exports = { snapshot, versionsOf, newestFirst, versionEntries, restore, dropVersions };
