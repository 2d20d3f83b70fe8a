'use strict';

const { isObject } = require('../http');
const { lower, oneOfList } = require('./filters');
const { entryPath } = require('./query');

/**
 * Indexes of a data source's entries by the text of one column, so that a query whose `$filters`
 * hold a `oneof` on that column touches the entries holding those values, not every entry: a
 * single-row Sync into a million entries then costs about what it costs into ten. An index is
 * built the first time a query asks for its column and kept up to date by every change of the
 * store from then on (store.js calls `added`, `removed` and `reset`).
 *
 * It only narrows the entries a query looks at: each one is still tested against the whole
 * `where`, in the sandbox's readings, so the answer is the scan's. Every entry is indexed under the
 * text `oneof` compares in its `text` reading (trimmed, in lower case; a missing cell is ""), and a
 * `typed` match is also a `text` match, so no entry the scan would keep is left out.
 */

/** @typedef {Map<string, number | Set<number>>} ColumnIndex ids by the column's text */

/** Columns a `$filters` column names in every reading of `where`: a data column, no path. */
const indexable = (column) =>
	typeof column === 'string' && !column.includes('.') && entryPath(column) === `data.${column}`;

/** The text `oneof` compares of a column without a dot (valueAt's value for a one-part path). */
const textOf = ({ data }, column) =>
	lower(data !== null && typeof data === 'object' ? data[column] : undefined);

function add(index, text, id) {
	const held = index.get(text);
	if (held === undefined) index.set(text, id);
	else if (typeof held === 'number') index.set(text, new Set([held, id]));
	else held.add(id);
}

function drop(index, text, id) {
	const held = index.get(text);
	if (held === id) index.delete(text);
	else if (held instanceof Set) {
		held.delete(id);
		if (held.size === 1) index.set(text, held.values().next().value);
	}
}

/** Entries were added to the table (or stored as a new version: `removed` came first). */
function added(table, entries) {
	if (!table.indexes) return;
	for (const [column, index] of table.indexes) {
		for (const entry of entries) add(index, textOf(entry, column), entry.id);
	}
}

/** Entries (their stored versions) left the table, or are about to be replaced. */
function removed(table, entries) {
	if (!table.indexes) return;
	for (const [column, index] of table.indexes) {
		for (const entry of entries) drop(index, textOf(entry, column), entry.id);
	}
}

/** The whole content was replaced: the indexes are built again when next asked for. */
function reset(table) {
	table.indexes = undefined;
}

/** The index of `column`, built from `all()` (every entry) the first time. */
function indexOf(table, column, all) {
	table.indexes ??= new Map();
	let index = table.indexes.get(column);
	if (!index) {
		index = new Map();
		for (const entry of all()) add(index, textOf(entry, column), entry.id);
		table.indexes.set(column, index);
	}
	return index;
}

/** The first `oneof` of a where's top-level `$filters` on an indexable column, if any. */
function indexedFilter(where) {
	if (!isObject(where) || !Array.isArray(where.$filters)) return undefined;
	return where.$filters.find(
		(filter) =>
			isObject(filter) &&
			String(filter.condition).toLowerCase() === 'oneof' &&
			indexable(filter.column),
	);
}

/**
 * The ids (ascending) of the entries that may match `where`, when it holds a `oneof` an index can
 * answer; undefined when every entry must be tested.
 * @param {any} table the store's table of the data source
 * @param {() => Iterable<any>} all every entry of the table (to build an index)
 */
function candidateIds(table, where, all) {
	const filter = indexedFilter(where);
	if (!filter) return undefined;
	const index = indexOf(table, filter.column, all);
	const ids = [];
	for (const text of new Set(oneOfList(filter.value).map(lower))) {
		const held = index.get(text);
		if (typeof held === 'number') ids.push(held);
		else if (held) ids.push(...held);
	}
	return ids.sort((a, b) => a - b);
}

module.exports = { added, removed, reset, candidateIds };
