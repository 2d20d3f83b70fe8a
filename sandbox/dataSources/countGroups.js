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

/** `{$sum: <number>}` accumulators by output name, or undefined if one is anything else. */
function countAccumulators(group) {
	const sums = [];
	for (const [name, accumulator] of Object.entries(group)) {
		if (name === '_id') continue;
		const keys = accumulator && typeof accumulator === 'object' ? Object.keys(accumulator) : [];
		if (keys.length !== 1 || keys[0] !== '$sum') return undefined;
		if (typeof accumulator.$sum !== 'number' || !Number.isFinite(accumulator.$sum))
			return undefined;
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

const isScalar = (value) => value === null || typeof value !== 'object';

/** The group's `_id` and the Map key that tells it apart (5 and "5" differ, as in mingo). */
function groupId(data, plan) {
	if (plan.single !== undefined) {
		const value = data[plan.single];
		return value === undefined ? { id: null, key: null } : { id: value, key: value };
	}
	const id = {};
	const parts = [];
	for (const [name, column] of plan.fields) {
		const value = data[column];
		if (value === undefined) parts.push(MISSING);
		else {
			id[name] = value;
			parts.push([value]);
		}
	}
	return { id, key: JSON.stringify(parts) };
}

/**
 * The stage's output for these datas, or undefined when a value needs mingo's deep comparison.
 * @param {object[]} datas
 */
function countGroups(datas, plan) {
	const groups = new Map();
	for (const data of datas) {
		const { id, key } = groupId(data ?? {}, plan);
		if (plan.single !== undefined ? !isScalar(id) : !Object.values(id).every(isScalar))
			return undefined;
		const group = groups.get(key);
		if (group) group.count++;
		else groups.set(key, { id, count: 1 });
	}
	return [...groups.values()].map(({ id, count }) => {
		const out = { _id: id };
		for (const [name, each] of plan.sums) out[name] = each * count;
		return out;
	});
}

module.exports = { countGroupPlan, countGroups };
