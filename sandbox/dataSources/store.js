'use strict';

const { iso } = require('../state');

/**
 * Entries are kept per data source (insertion order + an id index), so reads, commits and
 * bulk imports stay linear in the size of the data source they touch. Entry objects are never
 * mutated after creation: an update stores a new object, so version snapshots can share them.
 */

/** @param {any} state @returns {Map<number, {list: any[], byId: Map<number, any>}>} */
function tables(state) {
	if (!state.entryTables) {
		state.entryTables = new Map();
		// Other tools read `state.entries` as one flat list: keep that view.
		Object.defineProperty(state, 'entries', {
			configurable: true,
			enumerable: true,
			get: () => [...state.entryTables.values()].flatMap((table) => table.list),
		});
	}
	return state.entryTables;
}

function table(state, dataSourceId) {
	const all = tables(state);
	let found = all.get(dataSourceId);
	if (!found) {
		found = { list: [], byId: new Map() };
		all.set(dataSourceId, found);
	}
	return found;
}

function entriesOf(state, dataSourceId) {
	return table(state, dataSourceId).list;
}

function findEntry(state, dataSourceId, entryId) {
	return table(state, dataSourceId).byId.get(entryId);
}

/** Replaces the whole content of a data source with `list` (entries already built). */
function setEntries(state, dataSourceId, list) {
	const t = table(state, dataSourceId);
	t.list = list;
	t.byId = new Map(list.map((entry) => [entry.id, entry]));
}

function newEntry(state, dataSource, data, at = iso(state.now())) {
	return { id: state.nextId++, data, dataSourceId: dataSource.id, createdAt: at, updatedAt: at };
}

function appendEntries(state, dataSourceId, newOnes) {
	const t = table(state, dataSourceId);
	for (const entry of newOnes) {
		t.list.push(entry);
		t.byId.set(entry.id, entry);
	}
}

/**
 * One pass over a data source: swaps in `replaced` entries, drops `gone` ids (and, unless
 * `keepOthers`, every entry not replaced), then appends `created`. The id index is updated in place.
 */
function applyChanges(state, dataSourceId, { replaced, gone, keepOthers, created }) {
	const t = table(state, dataSourceId);
	let list = t.list;
	if (!keepOthers || gone.size || replaced.size) {
		list = [];
		for (const entry of t.list) {
			const next = replaced.get(entry.id);
			if (gone.has(entry.id) || (!keepOthers && !next)) {
				t.byId.delete(entry.id);
				continue;
			}
			if (next) t.byId.set(entry.id, next);
			list.push(next ?? entry);
		}
		t.list = list;
	}
	for (const entry of created) {
		list.push(entry);
		t.byId.set(entry.id, entry);
	}
}

function replaceEntry(state, dataSourceId, entry) {
	const t = table(state, dataSourceId);
	const index = t.list.findIndex((candidate) => candidate.id === entry.id);
	if (index !== -1) t.list[index] = entry;
	t.byId.set(entry.id, entry);
}

/** Removes the given ids in one pass; returns how many went. */
function removeEntries(state, dataSourceId, ids) {
	const t = table(state, dataSourceId);
	const gone = new Set(ids);
	const before = t.list.length;
	t.list = t.list.filter((entry) => !gone.has(entry.id));
	for (const id of gone) t.byId.delete(id);
	return before - t.list.length;
}

function dropTable(state, dataSourceId) {
	tables(state).delete(dataSourceId);
}

/** Adds the keys of new data to the data source's columns, keeping their order. */
function learnColumns(dataSource, datas) {
	const columns = Array.isArray(dataSource.columns) ? [...dataSource.columns] : [];
	const known = new Set(columns);
	for (const data of datas) {
		for (const key of Object.keys(data ?? {})) {
			if (!known.has(key)) {
				known.add(key);
				columns.push(key);
			}
		}
	}
	if (columns.length !== (dataSource.columns ?? []).length) dataSource.columns = columns;
}

module.exports = {
	tables,
	entriesOf,
	findEntry,
	setEntries,
	newEntry,
	appendEntries,
	applyChanges,
	replaceEntry,
	removeEntries,
	dropTable,
	learnColumns,
};
