'use strict';

/**
 * The platform's custom `$filters` conditions: [{column, condition, value}], all must match.
 * Text comparisons ignore case, as the platform's do.
 */

const UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];

function valueAt(data, path) {
	let current = data;
	for (const part of String(path).split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = current[part];
	}
	return current;
}

const isBlank = (value) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(Array.isArray(value) && value.length === 0);

const lower = (value) =>
	String(value ?? '')
		.trim()
		.toLowerCase();

function asNumber(value) {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
		return Number(value);
	return undefined;
}

/** Numbers compare as numbers, everything else as case-insensitive text. */
function compare(a, b) {
	const x = asNumber(a);
	const y = asNumber(b);
	if (x !== undefined && y !== undefined) return x - y;
	return lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0;
}

/** `YYYY-MM-DD`, `HH:mm` (today) or `YYYY-MM-DD HH:mm`, read as UTC. */
function parseDate(value) {
	if (value instanceof Date) return value;
	const text = String(value ?? '').trim();
	if (/^\d{1,2}:\d{2}$/.test(text))
		return new Date(`${new Date().toISOString().slice(0, 10)}T${text}:00Z`);
	const date = new Date(/^\d{4}-\d{2}-\d{2} \d/.test(text) ? text.replace(' ', 'T') + 'Z' : text);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The start of the unit the date falls in, as a number comparable across dates. */
function truncate(date, unit) {
	const d = new Date(date.getTime());
	switch (unit) {
		case 'year':
			return Date.UTC(d.getUTCFullYear(), 0);
		case 'quarter':
			return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3);
		case 'month':
			return Date.UTC(d.getUTCFullYear(), d.getUTCMonth());
		case 'week': {
			const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
			return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
		}
		case 'hour':
			return Math.floor(d.getTime() / 3_600_000) * 3_600_000;
		case 'minute':
			return Math.floor(d.getTime() / 60_000) * 60_000;
		case 'second':
			return Math.floor(d.getTime() / 1000) * 1000;
		default:
			return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
	}
}

function dateCompare(actual, expected, unit) {
	const a = parseDate(actual);
	const b = parseDate(expected);
	if (!a || !b) return undefined;
	const chosen = UNITS.includes(unit) ? unit : 'day';
	return truncate(a, chosen) - truncate(b, chosen);
}

/** A `oneof` value as a list: an array, or a comma-separated text. */
const oneOfList = (value) => (Array.isArray(value) ? value : String(value ?? '').split(','));

/**
 * `oneof` in one of its readings (readings.js): `text` compares every value as trimmed text in
 * any case (5 matches "5"); `typed` compares a text cell with the list's texts (in any case), a
 * number or a boolean cell with the list's numbers or booleans, and nothing else.
 */
function oneOfTest(value, reading) {
	const list = oneOfList(value);
	if (reading !== 'typed') {
		const allowed = new Set(list.map(lower));
		return (cell) => allowed.has(lower(cell));
	}
	const texts = new Set(list.filter((item) => typeof item === 'string').map(lower));
	const others = new Set(list.filter((item) => typeof item !== 'string'));
	return (cell) =>
		typeof cell === 'string'
			? texts.has(lower(cell))
			: (typeof cell === 'number' || typeof cell === 'boolean') && others.has(cell);
}

/**
 * @param {{oneof?: string}} [readings] the sandbox's reading of `oneof` (default `text`)
 * @returns {(data: object) => boolean}
 */
function compileFilter(filter, readings = {}) {
	const { column, condition, value, unit } = filter ?? {};
	const get = (data) => valueAt(data, column);
	switch (String(condition).toLowerCase()) {
		case '==':
			return (data) => lower(get(data)) === lower(value);
		case '!=':
			return (data) => lower(get(data)) !== lower(value);
		case '>':
			return (data) => !isBlank(get(data)) && compare(get(data), value) > 0;
		case '>=':
			return (data) => !isBlank(get(data)) && compare(get(data), value) >= 0;
		case '<':
			return (data) => !isBlank(get(data)) && compare(get(data), value) < 0;
		case '<=':
			return (data) => !isBlank(get(data)) && compare(get(data), value) <= 0;
		case 'contains':
			return (data) => lower(get(data)).includes(lower(value));
		case 'empty':
			return (data) => isBlank(get(data));
		case 'notempty':
			return (data) => !isBlank(get(data));
		case 'between':
			return (data) =>
				!isBlank(get(data)) &&
				compare(get(data), value?.from) >= 0 &&
				compare(get(data), value?.to) <= 0;
		case 'oneof': {
			const test = oneOfTest(value, readings.oneof);
			return (data) => test(get(data));
		}
		case 'dateis':
			return (data) => dateCompare(get(data), value, unit) === 0;
		case 'datebefore':
			return (data) => (dateCompare(get(data), value, unit) ?? 0) < 0;
		case 'dateafter':
			return (data) => (dateCompare(get(data), value, unit) ?? 0) > 0;
		case 'datebetween':
			return (data) => {
				const from = dateCompare(get(data), filter.from?.value ?? value?.from, unit);
				const to = dateCompare(get(data), filter.to?.value ?? value?.to, unit);
				return from !== undefined && to !== undefined && from >= 0 && to <= 0;
			};
		default:
			return null;
	}
}

module.exports = { compileFilter, valueAt, compare, lower, oneOfList };
