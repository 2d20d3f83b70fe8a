'use strict';

/**
 * A `$group` stage that counts entries by plain columns, computed with one Map: the shape Sync's
 * duplicate check sends. mingo evaluates `_id` and each accumulator per entry through its
 * expression engine, which takes seconds for a million entries; the result here is the same
 * (tested against mingo): groups in first-seen order, a missing column is `null` as a lone `_id`
 * and left out of an object `_id`. Any other stage, or a column holding an object or a list (mingo
 * compares those deeply), is left to mingo.
 */

const MISSING = 0;

/** `$Name`: a column read as it is (no dotted path, no variable). */
const plainField = (value) =>
	typeof value === 'string' && /^\$[^$.]/.test(value) && !value.includes('.');

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

/** The stage's plan: columns of the `_id` (`single` for `_id: "$Name"`) and the sums; else undefined. */
function countGroupPlan(stage) {
	const group = stage && typeof stage === 'object' ? stage.$group : undefined;
	if (!group || typeof group !== 'object' || Object.keys(stage).length !== 1) return undefined;
	const sums = countAccumulators(group);
	if (!sums) return undefined;
	const id = group._id;
	if (plainField(id)) return { single: id.slice(1), sums };
	if (!id || typeof id !== 'object' || Array.isArray(id)) return undefined;
	const fields = Object.entries(id);
	if (!fields.length || fields.some(([name, path]) => name.startsWith('$') || !plainField(path)))
		return undefined;
	return { fields: fields.map(([name, path]) => [name, path.slice(1)]), sums };
}

const isScalar = (value) =>
	value === null || (typeof value !== 'object' && typeof value !== 'function');

/** A column of the entry itself: `constructor` or `toString` are no column an entry inherits. */
const cell = (data, column) =>
	data && Object.prototype.hasOwnProperty.call(data, column) ? data[column] : undefined;

/** `[_id, count]` pairs by one column: the value is its own Map key (5 and "5" differ, as in mingo). */
function countByColumn(datas, column) {
	const counts = new Map();
	for (const data of datas) {
		const value = cell(data, column) ?? null;
		if (!isScalar(value)) return undefined;
		counts.set(value, (counts.get(value) ?? 0) + 1);
	}
	return counts;
}

/** `[_id, count]` pairs by several columns, keyed by their values as JSON, a missing one told apart from null. */
function countByColumns(datas, fields) {
	const groups = new Map();
	for (const data of datas) {
		const id = {};
		const parts = [];
		for (const [name, column] of fields) {
			const value = cell(data, column);
			if (value === undefined) parts.push(MISSING);
			else if (!isScalar(value)) return undefined;
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
 * The stage's output for these datas, or undefined when a value needs mingo's deep comparison.
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
