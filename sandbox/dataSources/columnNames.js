'use strict';

const { badRequest, isObject } = require('../http');
const { compileWhere, entryPath, ownValue, pickPaths, setPath } = require('./query');

/** Whether a name addresses the entry itself (`id`, `data.Name`) rather than a column. */
const isEntryPath = (name) => entryPath(name) === String(name);

/** A `where` over data rewritten over the whole entry: columns become `data.<Column>`. */
function toEntryPaths(where) {
	if (Array.isArray(where)) return where.map(toEntryPaths);
	if (!isObject(where)) return where;
	const out = {};
	for (const [key, value] of Object.entries(where)) {
		if (key === '$filters' && Array.isArray(value)) {
			out.$filters = value.map((filter) =>
				isObject(filter) ? { ...filter, column: entryPath(filter.column) } : filter,
			);
		} else if (key === '$and' || key === '$or' || key === '$nor') out[key] = toEntryPaths(value);
		else if (key.startsWith('$')) out[key] = value;
		else out[entryPath(key)] = value;
	}
	return out;
}

/**
 * A predicate over whole entries for a query's `where`, in the sandbox's reading of its keys
 * (readings.js): `bare` tests the entry's data, `prefixed` the entry (`data.Name`, `id`...).
 * @returns {(entry: any) => boolean}
 */
function entryWhere(where, reading) {
	if (reading === 'prefixed') return compileWhere(toEntryPaths(where));
	const matches = compileWhere(where);
	return (entry) => matches(entry.data);
}

/** Columns picked off data as the platform's `bare` reading does: a name, or a dotted path. */
function pickColumns(data, names) {
	const out = {};
	if (!isObject(data)) return out;
	for (const name of names) {
		if (Object.hasOwn(data, name)) {
			out[name] = data[name];
			continue;
		}
		const parts = String(name).split('.');
		const value = parts.reduce((at, part) => ownValue(at, part), data);
		if (value !== undefined) setPath(out, parts, value);
	}
	return out;
}

/** Whether an attribute is written in the other reading's form: a column in `prefixed`, `data.` in `bare`. */
const isForeign = (attribute, reading) =>
	reading === 'bare' ? String(attribute).startsWith('data.') : !isEntryPath(attribute);

/**
 * What a select with `attributes` returns of each entry, in the sandbox's reading: `prefixed`
 * keeps only the listed paths of the entry; `bare` keeps the entry with only the listed columns
 * of its data. A distinct row is the picked columns alone, `{data}`, in the `bare` reading. With
 * `foreign` = `refused`, a name in the other reading's form is a 400 instead of picking nothing.
 * @returns {(entry: any) => any}
 */
function attributePicker(attributes, reading, { distinct = false, foreign = 'ignored' } = {}) {
	if (!Array.isArray(attributes) || !attributes.length) return (entry) => entry;
	const refused =
		foreign === 'refused' ? attributes.find((name) => isForeign(name, reading)) : undefined;
	if (refused !== undefined) throw badRequest(`column "${refused}" does not exist`);
	if (reading === 'bare') {
		return distinct
			? (entry) => ({ data: pickColumns(entry.data, attributes) })
			: (entry) => ({ ...entry, data: pickColumns(entry.data, attributes) });
	}
	const paths = attributes.filter(isEntryPath).map((attribute) => attribute.split('.'));
	return (entry) => pickPaths(entry, paths);
}

module.exports = { entryWhere, attributePicker };
