'use strict';

const { Query, Aggregator } = require('mingo');
const { badRequest, isObject } = require('../http');
const { compileFilter, valueAt, compare } = require('./filters');
const { countGroupPlan, countGroups } = require('./countGroups');
const { joinOrder } = require('./order');

const ENTRY_FIELDS = new Set([
	'id',
	'dataSourceId',
	'createdAt',
	'updatedAt',
	'deletedAt',
	'order',
	'data',
]);

/**
 * `Name` and `data.Name` both mean the column; `id`, `createdAt`, `order` (Studio's row order)...
 * mean the entry's own fields.
 */
function entryPath(path) {
	const text = String(path);
	return ENTRY_FIELDS.has(text.split('.')[0]) ? text : `data.${text}`;
}

/** `$iLike` (SQL-style `%` and `_` wildcards, any case) becomes a mingo regex. */
function rewriteOperators(value) {
	if (Array.isArray(value)) return value.map(rewriteOperators);
	if (!isObject(value)) return value;
	const out = {};
	for (const [key, inner] of Object.entries(value)) {
		if (key === '$iLike') {
			const pattern = String(inner)
				.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
				.replace(/%/g, '.*')
				.replace(/_/g, '.');
			out.$regex = `^${pattern}$`;
			out.$options = 'i';
		} else if (key === '$convertToNumber') {
			out.$convert = { input: rewriteOperators(inner), to: 'double', onError: null, onNull: null };
		} else out[key] = rewriteOperators(inner);
	}
	return out;
}

/**
 * A predicate over an entry's data for a `where`: document-database operators (via mingo) plus
 * the platform's `$filters`, also inside `$and`, `$or` and `$nor`.
 * @param {{oneof?: string}} [readings] the sandbox's readings (readings.js) that `$filters` follow
 * @returns {(data: object) => boolean}
 */
function compileWhere(where, readings = {}) {
	if (where === undefined || where === null) return () => true;
	if (!isObject(where)) throw badRequest('"where" must be an object');
	const tests = [];
	const rest = {};
	for (const [key, value] of Object.entries(where)) {
		if (key === '$filters') {
			if (!Array.isArray(value))
				throw badRequest('"$filters" must be an array of {column, condition, value}');
			for (const filter of value) {
				const test = compileFilter(filter, readings);
				if (!test) throw badRequest(`Unknown $filters condition "${filter?.condition}"`);
				tests.push(test);
			}
		} else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
			const parts = value.map((part) => compileWhere(part, readings));
			if (key === '$and') tests.push((data) => parts.every((part) => part(data)));
			if (key === '$or') tests.push((data) => parts.some((part) => part(data)));
			if (key === '$nor') tests.push((data) => !parts.some((part) => part(data)));
		} else rest[key] = value;
	}
	if (Object.keys(rest).length) {
		let query;
		try {
			query = new Query(rewriteOperators(rest));
		} catch (error) {
			throw badRequest(`Invalid where: ${error.message}`);
		}
		tests.push((data) => query.test(data));
	}
	return (data) => tests.every((test) => test(data ?? {}));
}

/**
 * Entries sorted by the keys of checkOrder or joinOrder (order.js); entries without a value sort
 * after those with one.
 * @param {import('./order').SortKey[]} keys
 */
function sortEntries(entries, keys) {
	if (!keys.length) return entries;
	return entries.slice().sort((a, b) => {
		for (const { valueOf, sign } of keys) {
			const x = valueOf(a);
			const y = valueOf(b);
			if (x === y) continue;
			if (x === undefined || x === null) return 1;
			if (y === undefined || y === null) return -1;
			const diff = compare(x, y);
			if (diff !== 0) return diff * sign;
		}
		return 0;
	});
}

/** An own value of an object (a column named `__proto__` is not found on every object). */
const ownValue = (value, key) =>
	isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;

/**
 * Sets an own property: a plain assignment, except for `__proto__`, which an assignment would take
 * as the object's prototype (defining every key instead makes each picked entry many times slower).
 */
function setOwn(target, key, value) {
	if (key === '__proto__') {
		Object.defineProperty(target, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	} else target[key] = value;
}

/** Sets `value` at a path of keys in `out`, making the objects on the way as own properties. */
function setPath(out, parts, value) {
	let target = out;
	for (let at = 0; at < parts.length - 1; at++) {
		const part = parts[at];
		const next = isObject(ownValue(target, part)) ? target[part] : {};
		setOwn(target, part, next);
		target = next;
	}
	setOwn(target, parts[parts.length - 1], value);
}

/** The listed paths of an entry (each a list of keys); a path the entry lacks picks nothing. */
function pickPaths(entry, paths) {
	const out = {};
	for (const parts of paths) {
		const value = parts.reduce((at, part) => ownValue(at, part), entry);
		if (value !== undefined) setPath(out, parts, value);
	}
	if (entry.joins) out.joins = entry.joins;
	return out;
}

/**
 * A join's `attributes`: `id`, `data.Name` or `Name` (the joins docs use bare names). The paths
 * are parsed once, not once per entry.
 */
function picker(attributes) {
	if (!Array.isArray(attributes) || !attributes.length) return (entry) => entry;
	const paths = attributes.map((attribute) => entryPath(attribute).split('.'));
	return (entry) => pickPaths(entry, paths);
}

/**
 * Adds `joins` to each entry. `on` maps a path of this data source's entries to one of the joined
 * one's, each over the whole entry (`data.Email`, `id`): a column without `data.` matches nothing,
 * as on the platform. Options: required (drop entries without a match), where, attributes, order
 * (one flat pair or a column name, see joinOrder), limit, count.
 * @param {(source: {id?: unknown, name?: string}) => any[]} readJoined the entries of a joined data
 *   source, named by id or by name (access checked)
 */
function applyJoins(entries, join, readJoined) {
	if (!isObject(join)) return entries;
	let result = entries;
	for (const [name, spec] of Object.entries(join)) {
		const named = spec?.dataSourceId === undefined && typeof spec?.dataSourceName === 'string';
		if (!isObject(spec) || (spec.dataSourceId === undefined && !named) || !isObject(spec.on)) {
			throw badRequest(
				`Join "${name}" needs a dataSourceId (or dataSourceName) and an "on" object`,
			);
		}
		const [[leftPath, rightPath]] = Object.entries(spec.on);
		const matchesWhere = compileWhere(spec.where);
		const pickJoined = picker(spec.attributes);
		const index = new Map();
		const source = named ? { name: spec.dataSourceName } : { id: spec.dataSourceId };
		for (const joined of sortEntries(readJoined(source), joinOrder(spec.order, valueAt))) {
			if (!matchesWhere(joined.data)) continue;
			const key = valueAt(joined, rightPath);
			if (key === undefined) continue;
			if (!index.has(key)) index.set(key, []);
			index.get(key).push(joined);
		}
		const next = [];
		for (const entry of result) {
			let matched = index.get(valueAt(entry, leftPath)) ?? [];
			if (spec.required && !matched.length) continue;
			if (Number.isInteger(spec.limit)) matched = matched.slice(0, spec.limit);
			const value = spec.count
				? matched.length
				: matched.map((joined) =>
						pickJoined({ id: joined.id, dataSourceId: joined.dataSourceId, data: joined.data }),
					);
			next.push({ ...entry, joins: { ...(entry.joins ?? {}), [name]: value } });
		}
		result = next;
	}
	return result;
}

function aggregate(datas, pipeline) {
	let stages = Array.isArray(pipeline) ? pipeline : [pipeline];
	while (stages.length) {
		const plan = countGroupPlan(stages[0]);
		const counted = plan && countGroups(datas, plan);
		if (!counted) break;
		datas = counted;
		stages = stages.slice(1);
	}
	if (!stages.length) return datas;
	try {
		return new Aggregator(rewriteOperators(stages)).run(datas);
	} catch (error) {
		throw badRequest(`Invalid aggregate: ${error.message}`);
	}
}

module.exports = {
	compileWhere,
	sortEntries,
	picker,
	pickPaths,
	ownValue,
	setPath,
	applyJoins,
	aggregate,
	entryPath,
};
