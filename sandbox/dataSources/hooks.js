'use strict';

const http = require('node:http');
const { badRequest, isObject } = require('../http');
const { compileWhere } = require('./query');

/**
 * Data-source hooks, as the platform's public docs describe them: `{type, runOn, conditions?,
 * payload}` stored in the data source's `hooks` (written with the data-source update call). Only
 * `web` hooks do something here: `{type: 'web', runOn: ['insert', 'update'], payload: {method,
 * endpoint, body, headers}}` calls `endpoint` over HTTP when an entry is inserted or updated.
 *
 * - Which changes run hooks: inserting one entry (PUT …/data) runs `insert` hooks, updating one
 *   (PUT …/data/:id) runs `update` hooks, a commit runs only the kinds its `runHooks` lists (a
 *   commit without `runHooks` and a delete run none: SPEC makes hooks in a commit opt-in, and the
 *   platform's sync agent passes `runHooks` for that reason). A bulk append runs `insert` hooks
 *   for every new entry unless its `runHooks` is false (the platform's JS API documents that
 *   default); a bulk replace runs them only with `runHooks: true`.
 * - Templated values: every string of the payload is rendered per entry. `{{{name}}}` inserts the
 *   value raw, `{{name}}` HTML-escaped (as Handlebars does, which the docs name); names are the
 *   entry's columns (`{{{Title}}}`, as in the docs' examples), with dots for nested values. The
 *   sandbox also offers `entry` (the entry record: id, dataSourceId, createdAt, updatedAt, data),
 *   `dataSource` ({id, name}) and `event` (insert or update); these win over columns of those names.
 * - `conditions` (optional): every object must match the entry's data (query operators) to run.
 * - Calls go out one after another, after the change was stored, and only to loopback addresses
 *   (127.0.0.1, localhost, [::1]); every call is recorded in `state.hookCalls`.
 */

const KINDS = ['insert', 'update'];
const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])$/i;
const CALL_TIMEOUT_MS = 10_000;

/** Validates and stores `hooks` of a data-source update body (other fields are left alone). */
function updateHooks(dataSource, body) {
	if (!isObject(body) || body.hooks === undefined) return;
	const hooks = body.hooks;
	if (!Array.isArray(hooks) || !hooks.every(isObject)) {
		throw badRequest('"hooks" must be an array of hook objects.');
	}
	for (const hook of hooks) {
		if (typeof hook.type !== 'string' || !hook.type)
			throw badRequest('Each hook needs a "type" (email, sms, web, push or operations).');
		if (hook.runOn !== undefined && !Array.isArray(hook.runOn))
			throw badRequest('A hook\'s "runOn" must be an array.');
		if (hook.type === 'web' && !isObject(hook.payload))
			throw badRequest('A web hook needs a "payload" object: {method, endpoint, body, headers}.');
	}
	dataSource.hooks = JSON.parse(JSON.stringify(hooks));
}

function escapeHtml(text) {
	return text.replace(
		/[&<>"'`=]/g,
		(c) =>
			({
				'&': '&amp;',
				'<': '&lt;',
				'>': '&gt;',
				'"': '&quot;',
				"'": '&#x27;',
				'`': '&#x60;',
				'=': '&#x3D;',
			})[c],
	);
}

function lookup(context, path) {
	let value = context;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = value[part];
	}
	return value;
}

function renderString(text, context) {
	return text.replace(/\{\{(\{?)\s*([^{}\s]+)\s*\}?\}\}/g, (_, raw, path) => {
		const value = lookup(context, path);
		if (value === undefined || value === null) return '';
		return raw ? String(value) : escapeHtml(String(value));
	});
}

function render(value, context) {
	if (typeof value === 'string') return renderString(value, context);
	if (Array.isArray(value)) return value.map((item) => render(item, context));
	if (isObject(value))
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, context)]));
	return value;
}

function queueOf(state) {
	if (!state.hookQueue) state.hookQueue = Promise.resolve();
	if (!state.hookCalls) state.hookCalls = [];
	return state.hookQueue;
}

function send(method, endpoint, headers, body) {
	return new Promise((resolve) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const request = http.request(
			endpoint,
			{
				method,
				headers: {
					...(payload === undefined
						? {}
						: {
								'Content-Type': 'application/json',
								'Content-Length': Buffer.byteLength(payload),
							}),
					...headers,
				},
				timeout: CALL_TIMEOUT_MS,
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve({ status: response.statusCode }));
			},
		);
		request.on('timeout', () => request.destroy(new Error('timed out')));
		request.on('error', (error) => resolve({ status: 0, error: error.message }));
		request.end(payload);
	});
}

/** One hook call for one entry, recorded in `state.hookCalls`. */
async function call(state, dataSource, hook, event, entry) {
	const context = {
		...entry.data,
		entry,
		dataSource: { id: dataSource.id, name: dataSource.name },
		event,
	};
	const payload = render(hook.payload, context);
	const method = String(payload.method || 'POST').toUpperCase();
	const record = {
		dataSourceId: dataSource.id,
		event,
		entryId: entry.id,
		method,
		endpoint: payload.endpoint,
		headers: isObject(payload.headers) ? payload.headers : {},
		body: payload.body,
		at: Date.now(),
		status: undefined,
	};
	state.hookCalls.push(record);
	let url;
	try {
		url = new URL(String(payload.endpoint));
	} catch {
		record.status = 0;
		record.error = 'The endpoint is not a URL';
		return;
	}
	if (url.protocol !== 'http:' || !LOOPBACK.test(url.hostname)) {
		record.status = 0;
		record.error = 'Not called: the sandbox only calls http:// loopback addresses';
		return;
	}
	const headers = Object.fromEntries(
		Object.entries(record.headers).map(([name, value]) => [name, String(value)]),
	);
	const body = method === 'GET' || method === 'HEAD' ? undefined : payload.body;
	Object.assign(record, await send(method, url, headers, body), { ms: Date.now() - record.at });
}

/**
 * Runs the data source's `event` hooks for each entry, after the change was stored. Returns at
 * once: the calls are queued (one after another) and the API answer does not wait for them.
 */
function runHooks(state, dataSource, event, entries) {
	if (!KINDS.includes(event) || !entries.length) return;
	const hooks = (dataSource.hooks ?? []).filter(
		(hook) => hook.type === 'web' && Array.isArray(hook.runOn) && hook.runOn.includes(event),
	);
	if (!hooks.length) return;
	const jobs = [];
	for (const entry of entries) {
		for (const hook of hooks) {
			const conditions = Array.isArray(hook.conditions) ? hook.conditions : [];
			let matches = true;
			try {
				matches = conditions.every((condition) => compileWhere(condition)(entry.data));
			} catch {
				matches = false;
			}
			if (matches) jobs.push(() => call(state, dataSource, hook, event, entry));
		}
	}
	state.hookQueue = queueOf(state).then(async () => {
		for (const job of jobs) await job().catch(() => undefined);
	});
}

/** Resolves once every hook call queued so far has finished (for tests and scripts). */
function hooksSettled(state) {
	return queueOf(state);
}

module.exports = { updateHooks, runHooks, hooksSettled, render };
