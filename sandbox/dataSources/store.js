'use strict';

const { iso } = require('../state');
const columnIndex = require('./columnIndex');

/**
 * Entries are kept per data source in id order, in blocks of at most BLOCK entries, so a request
 * costs what it touches, not the size of the data source: a page by position or after an id is a
 * binary search plus the page, an entry by id a binary search, a commit copies only the blocks it
 * changes, a count is a number. Version snapshots share blocks: a snapshot copies the list of
 * blocks (not the entries), and a block a snapshot holds is copied before it is changed.
 * Entry objects are never mutated after creation: an update stores a new object. Columns asked
 * for by `oneof` get an index that every change here keeps up to date (see columnIndex.js).
 *
 * Ids come from one counter that only grows, so appending keeps the id order.
 */

const BLOCK = 1024;

/** @typedef {{entries: any[], owner: number}} Block */
/** @typedef {{blocks: Block[], size: number, generation: number, starts?: number[], flat?: any[], indexes?: Map<string, any>}} Table */

/** @param {any} state @returns {Map<number, Table>} */
function tables(state) {
	if (!state.entryTables) {
		state.entryTables = new Map();
		// Other tools read `state.entries` as one flat list: keep that view.
		Object.defineProperty(state, 'entries', {
			configurable: true,
			enumerable: true,
			get: () => [...state.entryTables.keys()].flatMap((id) => entriesOf(state, id)),
		});
	}
	return state.entryTables;
}

/** @returns {Table} */
function table(state, dataSourceId) {
	const all = tables(state);
	let found = all.get(dataSourceId);
	if (!found) {
		found = { blocks: [], size: 0, generation: 0 };
		all.set(dataSourceId, found);
	}
	return found;
}

/** Called before any change: cached views go, and the counts are redone when next needed. */
function changing(t) {
	t.starts = undefined;
	t.flat = undefined;
}

/** The block at `index`, copied first if a snapshot shares it. */
function ownBlock(t, index) {
	const block = t.blocks[index];
	if (block.owner === t.generation) return block;
	const copy = { entries: block.entries.slice(), owner: t.generation };
	t.blocks[index] = copy;
	return copy;
}

/** Position of the first entry of each block (rebuilt after a change, one number per block). */
function starts(t) {
	if (!t.starts) {
		t.starts = new Array(t.blocks.length);
		let position = 0;
		for (let i = 0; i < t.blocks.length; i++) {
			t.starts[i] = position;
			position += t.blocks[i].entries.length;
		}
	}
	return t.starts;
}

/** Index of the last block whose first entry has an id ≤ `id` (0 if none). */
function blockFor(t, id) {
	let low = 0;
	let high = t.blocks.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >> 1;
		if (t.blocks[middle].entries[0].id <= id) low = middle;
		else high = middle - 1;
	}
	return low;
}

/** First index in a sorted block whose entry id is > `id` (or ≥ with `inclusive`). */
function indexInBlock(entries, id, inclusive) {
	let low = 0;
	let high = entries.length;
	while (low < high) {
		const middle = (low + high) >> 1;
		const other = entries[middle].id;
		if (other < id || (!inclusive && other === id)) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** `{block, index}` of the entry with this id, or undefined. */
function locate(t, id) {
	if (!t.blocks.length) return undefined;
	const block = blockFor(t, id);
	const index = indexInBlock(t.blocks[block].entries, id, true);
	return t.blocks[block].entries[index]?.id === id ? { block, index } : undefined;
}

/** All entries of a data source in id order (built once per change, for whole-table queries). */
function entriesOf(state, dataSourceId) {
	const t = table(state, dataSourceId);
	if (!t.flat) t.flat = flatten(t.blocks);
	return t.flat;
}

function flatten(blocks) {
	const list = [];
	for (const block of blocks) for (const entry of block.entries) list.push(entry);
	return list;
}

/**
 * The entries that may match a query's `where`, in id order, when an index can narrow them (a
 * `oneof` filter, see columnIndex.js); undefined when every entry must be tested.
 */
function candidatesFor(state, dataSourceId, where) {
	const t = table(state, dataSourceId);
	const ids = columnIndex.candidateIds(t, where, () => entriesOf(state, dataSourceId));
	return ids?.map((id) => findEntry(state, dataSourceId, id));
}

function countOf(state, dataSourceId) {
	return table(state, dataSourceId).size;
}

/** Entries from position `start` (inclusive) to `end` (exclusive), in id order. */
function pageOf(state, dataSourceId, start, end) {
	const t = table(state, dataSourceId);
	const page = [];
	const last = Math.min(end, t.size);
	if (start >= last) return page;
	const positions = starts(t);
	let low = 0;
	let high = positions.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >> 1;
		if (positions[middle] <= start) low = middle;
		else high = middle - 1;
	}
	for (let block = low, position = start; position < last; block++) {
		const entries = t.blocks[block].entries;
		for (let i = position - positions[block]; i < entries.length && position < last; i++) {
			page.push(entries[i]);
			position++;
		}
	}
	return page;
}

/** Position of the first entry whose id is greater than `id`. */
function positionAfterId(state, dataSourceId, id) {
	const t = table(state, dataSourceId);
	if (!t.blocks.length) return 0;
	const block = blockFor(t, id);
	return starts(t)[block] + indexInBlock(t.blocks[block].entries, id, false);
}

function findEntry(state, dataSourceId, entryId) {
	const t = table(state, dataSourceId);
	const at = locate(t, entryId);
	return at && t.blocks[at.block].entries[at.index];
}

/** Replaces the whole content of a data source with `list` (entries already built). */
function setEntries(state, dataSourceId, list) {
	const t = table(state, dataSourceId);
	changing(t);
	const sorted = list.every((entry, i) => i === 0 || list[i - 1].id < entry.id)
		? list
		: list.slice().sort((a, b) => a.id - b.id);
	t.blocks = [];
	t.size = 0;
	columnIndex.reset(t);
	append(t, sorted);
}

function newEntry(state, dataSource, data, at = iso(state.now())) {
	return { id: state.nextId++, data, dataSourceId: dataSource.id, createdAt: at, updatedAt: at };
}

/** Appends entries whose ids are all greater than those stored. */
function append(t, newOnes) {
	if (!newOnes.length) return;
	changing(t);
	const last = t.blocks.length - 1;
	let block = last >= 0 && t.blocks[last].entries.length < BLOCK ? ownBlock(t, last) : undefined;
	for (const entry of newOnes) {
		if (!block || block.entries.length >= BLOCK) {
			block = { entries: [], owner: t.generation };
			t.blocks.push(block);
		}
		block.entries.push(entry);
	}
	t.size += newOnes.length;
	columnIndex.added(t, newOnes);
}

function appendEntries(state, dataSourceId, newOnes) {
	append(table(state, dataSourceId), newOnes);
}

/** Stores a new version of an existing entry (same id); returns false if the id is unknown. */
function replace(t, entry) {
	const at = locate(t, entry.id);
	if (!at) return false;
	changing(t);
	const block = ownBlock(t, at.block);
	columnIndex.removed(t, [block.entries[at.index]]);
	block.entries[at.index] = entry;
	columnIndex.added(t, [entry]);
	return true;
}

function replaceEntry(state, dataSourceId, entry) {
	replace(table(state, dataSourceId), entry);
}

/** Removes the given ids, touching only their blocks; returns how many went. */
function remove(t, ids) {
	const byBlock = new Map();
	for (const id of new Set(ids)) {
		const at = locate(t, id);
		if (!at) continue;
		if (!byBlock.has(at.block)) byBlock.set(at.block, new Set());
		byBlock.get(at.block).add(at.index);
	}
	if (!byBlock.size) return 0;
	changing(t);
	let removed = 0;
	for (const [index, positions] of byBlock) {
		const block = ownBlock(t, index);
		columnIndex.removed(
			t,
			block.entries.filter((_, position) => positions.has(position)),
		);
		block.entries = block.entries.filter((_, position) => !positions.has(position));
		removed += positions.size;
	}
	t.blocks = t.blocks.filter((block) => block.entries.length > 0);
	t.size -= removed;
	return removed;
}

function removeEntries(state, dataSourceId, ids) {
	return remove(table(state, dataSourceId), ids);
}

/**
 * A commit's changes: swaps in `replaced` entries, drops `gone` ids (and, unless `keepOthers`,
 * every entry not replaced), then appends `created`. Only the blocks holding changed entries are
 * touched; without `keepOthers` the new content is just the replaced and created entries.
 */
function applyChanges(state, dataSourceId, { replaced, gone, keepOthers, created }) {
	const t = table(state, dataSourceId);
	if (!keepOthers) {
		const kept = [...replaced.values()].filter((entry) => !gone.has(entry.id));
		setEntries(
			state,
			dataSourceId,
			kept.sort((a, b) => a.id - b.id),
		);
	} else {
		for (const entry of replaced.values()) replace(t, entry);
		remove(t, gone);
	}
	append(t, created);
}

/**
 * The current content as a snapshot that later changes do not affect: the list of blocks, whose
 * blocks are from now on copied before a change.
 */
function snapshotOf(state, dataSourceId) {
	const t = table(state, dataSourceId);
	const snapshot = { blocks: t.blocks.slice(), size: t.size };
	t.generation++;
	return snapshot;
}

/** The entries of a snapshot, in id order. */
function snapshotEntries(snapshot) {
	return snapshot ? flatten(snapshot.blocks) : [];
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
	BLOCK,
	tables,
	entriesOf,
	candidatesFor,
	countOf,
	pageOf,
	positionAfterId,
	findEntry,
	setEntries,
	newEntry,
	appendEntries,
	applyChanges,
	replaceEntry,
	removeEntries,
	snapshotOf,
	snapshotEntries,
	dropTable,
	learnColumns,
};
