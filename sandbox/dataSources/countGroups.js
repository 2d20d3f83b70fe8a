'use strict';

/**
 * A `$group` stage that counts entries by fields, computed with one Map: the shape Sync's
 * duplicate check sends. mingo evaluates `_id` and each accumulator per entry through its
 * expression engine, which takes seconds for a million entries; the result here is the same
 * (tested against mingo): groups in first-seen order, a missing field is `null` as a lone `_id`
 * and left out of an object `_id`. A field is `$name` (a field of the document: `$id`, or the
 * `$n` of a group a previous stage made) or `$outer.name` (one level down: `$data.Email`, a
 * column of an entry). Any other stage, or a value that mingo would traverse or compare deeply (an
 * object or a list), is left to mingo.
 */

const MISSING = 0;

/** `$name` or `$outer.name` as its path (`['name']`, `['outer', 'name']`), else undefined. */
function fieldPath(value) {
	if (typeof value !== 'string' || !/^\$[^$.]/.test(value)) return undefined;
	const parts = value.slice(1).split('.');
	if (parts.length > 2 || parts.some((part) => !part || part.startsWith('$'))) return undefined;
	return parts;
}

/** `{$sum: <whole number>}` accumulators by output name, or undefined if one is anything else. */
function countAccumulators(group) {
	const sums = [];
	for (const [name, accumulator] of Object.entries(group)) {
		if (name === '_id') continue;
		const keys = accumulator && typeof accumulator === 'object' ? Object.keys(accumulator) : [];
		if (keys.length !== 1 || keys[0] !== '$sum') return undefined;
		// Whole numbers only: then count × number is exactly the sum mingo adds up.
		if (!Number.isInteger(accumulator.$sum)) return undefined;
		sums.push([name, accumulator.$sum]);
	}
	return sums;
}

/** The stage's plan: paths of the `_id` (`single` for `_id: "$data.Name"`) and the sums; else undefined. */
function countGroupPlan(stage) {
	const group = stage && typeof stage === 'object' ? stage.$group : undefined;
	if (!group || typeof group !== 'object' || Object.keys(stage).length !== 1) return undefined;
	const sums = countAccumulators(group);
	if (!sums) return undefined;
	const id = group._id;
	const single = fieldPath(id);
	if (single) return { single, sums };
	if (!id || typeof id !== 'object' || Array.isArray(id)) return undefined;
	const fields = Object.entries(id).map(([name, path]) => [name, fieldPath(path)]);
	if (!fields.length || fields.some(([name, path]) => name.startsWith('$') || !path))
		return undefined;
	return { fields, sums };
}

const isScalar = (value) =>
	value === null || (typeof value !== 'object' && typeof value !== 'function');

/** A field the document has itself: `constructor` or `toString` are no field it inherits. */
const own = (doc, name) =>
	doc && Object.prototype.hasOwnProperty.call(doc, name) ? doc[name] : undefined;

/** Marks a path mingo would read through something other than an object (a list, a text...): left to mingo. */
const TRAVERSED = Symbol('traversed');

/** The value at a path of one or two fields, as mingo reads it for plain values. */
function cell(doc, path) {
	const outer = own(doc, path[0]);
	if (path.length === 1) return outer;
	if (outer === undefined || outer === null) return undefined;
	if (typeof outer !== 'object' || Array.isArray(outer)) return TRAVERSED;
	return own(outer, path[1]);
}

/** `[_id, count]` pairs by one field: the value is its own Map key (5 and "5" differ, as in mingo). */
function countByColumn(datas, path) {
	const counts = new Map();
	for (const data of datas) {
		const value = cell(data, path) ?? null;
		if (value === TRAVERSED || !isScalar(value)) return undefined;
		counts.set(value, (counts.get(value) ?? 0) + 1);
	}
	return counts;
}

/** `[_id, count]` pairs by several fields, keyed by their values as JSON, a missing one told apart from null. */
function countByColumns(datas, fields) {
	const groups = new Map();
	for (const data of datas) {
		const id = {};
		const parts = [];
		for (const [name, path] of fields) {
			const value = cell(data, path);
			if (value === undefined) parts.push(MISSING);
			else if (value === TRAVERSED || !isScalar(value)) return undefined;
			else {
				id[name] = value;
				parts.push([value]);
			}
		}
		const key = JSON.stringify(parts);
		const group = groups.get(key);
		if (group) group.count++;
		else groups.set(key, { id, count: 1 });
	}
	return [...groups.values()].map(({ id, count }) => [id, count]);
}

/**
 * The stage's output for these documents, or undefined when a value needs mingo's traversal or
 * deep comparison.
 * @param {object[]} datas
 */
function countGroups(datas, plan) {
	const counts =
		plan.single !== undefined
			? countByColumn(datas, plan.single)
			: countByColumns(datas, plan.fields);
	if (!counts) return undefined;
	const groups = [];
	for (const [id, count] of counts) {
		const group = { _id: id };
		for (const [name, each] of plan.sums) group[name] = each * count;
		groups.push(group);
	}
	return groups;
}

module.exports = { countGroupPlan, countGroups };
