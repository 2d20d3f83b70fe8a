'use strict';

/** An API error: the handler throws it, the server writes it as the platform's JSON envelope. */
class HttpError extends Error {
	/**
	 * @param {number} status
	 * @param {string} message
	 * @param {Record<string, unknown>} [extra] more fields of the body (type, payload, error, ...)
	 */
	constructor(status, message, extra = {}) {
		super(message);
		this.status = status;
		this.body = { message, ...extra };
	}
}

const notFound = (what = 'Not found') => new HttpError(404, what);
const badRequest = (message, extra) => new HttpError(400, message, extra);

/**
 * Compiles '/v1/apps/:id/publish' into a matcher returning the decoded params, or null.
 * @param {string} pattern
 */
function compilePath(pattern) {
	const names = [];
	const source = pattern
		.split('/')
		.map((part) => {
			if (part.startsWith(':')) {
				names.push(part.slice(1));
				return '([^/]+)';
			}
			return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	const regex = new RegExp(`^${source}/?$`);
	/** @param {string} path */
	return (path) => {
		const match = regex.exec(path);
		if (!match) return null;
		/** @type {Record<string, string>} */
		const params = {};
		names.forEach((name, i) => {
			params[name] = decodeURIComponent(match[i + 1]);
		});
		return params;
	};
}

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a boolean given as query string or JSON ("true", true, "1"). */
const truthy = (value) => value === true || value === 'true' || value === '1' || value === '';

/**
 * A paging parameter (limit, offset): undefined when not given, else a whole number >= 0 (a JSON
 * number or, from a query string, its digits); anything else is the 400 a database would refuse.
 */
function wholeNumber(value, name) {
	if (value === undefined || value === null || value === '') return undefined;
	const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
		throw badRequest(`"${name}" must be a whole number of 0 or more.`);
	}
	return number;
}

module.exports = { HttpError, notFound, badRequest, compilePath, isObject, truthy, wholeNumber };
