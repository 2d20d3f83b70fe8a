'use strict';

const { badRequest } = require('../http');

/** The entry's own fields a query's `order` may name without the `data.` prefix. */
const UNPREFIXED = ['id', 'order', 'createdAt', 'deletedAt', 'updatedAt'];

/** @typedef {{valueOf: (entry: any) => unknown, sign: 1 | -1}} SortKey */

/** ASC (the default) or DESC, any case; anything else fails in the database, still a 400. */
function signOf(direction) {
	if (direction === undefined || direction === null) return 1;
	const text = String(direction).toUpperCase();
	if (text === 'ASC' || text === 'DESC') return text === 'DESC' ? -1 : 1;
	throw badRequest(`syntax error at or near "${direction}"`);
}

/** The column of one pair: a string in place of a pair is read one character at a time. */
function columnOf(pair) {
	if (typeof pair === 'string') return { column: pair[0], direction: pair[1] };
	if (Array.isArray(pair)) return { column: pair[0], direction: pair[1] };
	return { column: pair, direction: undefined };
}

/**
 * A query's `order`, checked as the platform's route checks it (the source-checked docs of
 * `Fliplet/fliplet-cli`, branch fix/DEV-1824-ds-order-contract): a list of `[column, direction]`
 * pairs; only `id`, `order`, `createdAt`, `deletedAt` and `updatedAt` go unprefixed, every other
 * column is `data.<Column>`, verbatim. A flat `['createdAt', 'DESC']` is read one character at a
 * time and fails on its first letter (`Invalid order column name: c`). On a data source that
 * declares its columns an undeclared one is refused; with none declared it sorts as empty.
 * @returns {SortKey[]}
 */
function checkOrder(order, dataSource) {
	if (order === undefined || order === null) return [];
	const pairs = typeof order === 'string' ? [...order] : order;
	if (!Array.isArray(pairs)) throw badRequest(`Invalid order column name: ${String(order)}`);
	const declared = Array.isArray(dataSource.columns) && dataSource.columns.length > 0;
	return pairs.map((pair) => {
		const { column, direction } = columnOf(pair);
		if (typeof column === 'string' && UNPREFIXED.includes(column))
			return { valueOf: (entry) => entry[column], sign: signOf(direction) };
		if (typeof column !== 'string' || !column.startsWith('data.') || column.length === 5)
			throw badRequest(`Invalid order column name: ${column}`);
		const name = column.slice('data.'.length);
		if (declared && !dataSource.columns.includes(name))
			throw badRequest(`Column '${name}' does not exists`);
		return { valueOf: (entry) => entry.data?.[name], sign: signOf(direction) };
	});
}

/**
 * A join's own `order`: one flat `[column, direction]` pair or a column name (ascending), sorted
 * in memory over each joined entry as a whole (`createdAt`, `data.Title`). Another shape, such as
 * the top-level list of pairs, is not read: the matches keep their order.
 * @param {(entry: any, path: string) => unknown} valueAt
 * @returns {SortKey[]}
 */
function joinOrder(order, valueAt) {
	const pair = typeof order === 'string' ? [order] : order;
	if (!Array.isArray(pair) || typeof pair[0] !== 'string') return [];
	if (pair[1] !== undefined && typeof pair[1] !== 'string') return [];
	const [path, direction] = pair;
	return [{ valueOf: (entry) => valueAt(entry, path), sign: signOf(direction) }];
}

module.exports = { UNPREFIXED, checkOrder, joinOrder };
