'use strict';

const crypto = require('node:crypto');
const http = require('node:http');
const { badRequest, isObject } = require('../http');
const { sendPush } = require('../pushes');
const { compileWhere } = require('./query');
const { readingsOf } = require('./readings');
const store = require('./store');

/**
 * Data-source hooks, as the platform's public docs describe them (`Fliplet/fliplet-cli:
 * docs/Data-Source-Hooks.md`): `{type, runOn, conditions?, payload}` stored in the data source's
 * `hooks` (written with the data-source update call). Every kind the docs name runs, and every run
 * is recorded in `state.hookLog` (`{dataSourceId, event, entryId, type, ...}`):
 *
 * - `web`: `payload: {method, endpoint, body, headers}` is called over HTTP (also recorded, with
 *   its answer, in `state.hookCalls`);
 * - `email` (`payload: {to, subject, html}`) and `sms` (`payload: {to, body}`): recorded as sent;
 * - `push` (`appId`, `payload: {title, body}`, optional `filter: {match, dataSourceId}`): sent
 *   to the app's push subscriptions (with `filter`, to those whose entry in `dataSourceId`
 *   matches and holds their `flPushSubscriptionId`), recorded in `state.pushes` (see pushes.js);
 * - `operations` (`payload: {Column: ['trim' | 'lower' | 'upper' | 'hash', …] | 'text'}`): on
 *   `beforeSave` they change the data about to be stored; on `insert` or `update` they change the
 *   stored entry afterwards. `hash` writes a SHA-256 hex digest here (the platform's algorithm is
 *   not public). Only `operations` run on `beforeSave`, as in every example of the docs;
 *   `beforeQuery` hooks are stored but not run (the docs show no effect of theirs).
 *
 * - Which changes run hooks: inserting one entry (PUT …/data) runs `beforeSave` and `insert`
 *   hooks, updating one (PUT …/data/:id) `beforeSave` and `update` hooks (the platform's widgets
 *   update entries this way, and the docs say only saves from Studio's "App data" screen, which
 *   commits, skip hooks). A commit runs only the kinds its `runHooks` lists (and `beforeSave` for
 *   the entries of those kinds); a commit without `runHooks` and a delete run none: SPEC makes
 *   hooks in a commit opt-in, and the platform's sync agent passes `runHooks` for that reason. A
 *   bulk append runs `insert` hooks (and `beforeSave`) for every new entry unless its `runHooks`
 *   is false (the platform's JS API documents that default); a bulk replace runs them only with
 *   `runHooks: true`.
 * - Templated values: every string of the payload is rendered per entry. `{{{name}}}` inserts the
 *   value raw, `{{name}}` HTML-escaped (as Handlebars does, which the docs name); names are the
 *   entry's columns (`{{{Title}}}`, as in the docs' examples), with dots for nested values. No
 *   vendor source shows more in a hook's context, so the `hookTemplates` reading (readings.js)
 *   decides the rest: `entry` (the default) also offers `entry` (the entry record: id,
 *   dataSourceId, createdAt, updatedAt, data), `dataSource` ({id, name}) and `event` (insert or
 *   update), which win over columns of those names; `columns` offers the columns alone, so
 *   `{{{entry.id}}}` renders empty (unless a column named `entry` holds an `id`).
 * - How the values are read is the `hookValues` reading: `any` (the default) renders every string
 *   and keeps other JSON values as they are; `strict` compiles every value of a web, email, SMS or
 *   push payload as a template, as Handlebars' `compile` with `strict: true` does: a value that is
 *   not a string (a number, `true`, `null`) or a name the context does not hold throws, and the
 *   hook does not run (recorded in `state.hookLog` with its `error`). Every vendor example gives
 *   strings only (`Fliplet/fliplet-cli: docs/Data-Source-Hooks.md`).
 * - `conditions` (optional): every object must match the entry's data (query operators) to run.
 * - `triggers` (optional, as a form's email hook has): the hook runs only for saves from those
 *   sources, which no API write is, so it never runs here.
 * - Web calls go out one after another, after the change was stored, and only to loopback
 *   addresses (127.0.0.1, localhost, [::1]).
 */

const KINDS = ['insert', 'update'];
const TYPES = ['email', 'sms', 'web', 'push', 'operations'];
const EVENTS = ['insert', 'update', 'beforeSave', 'beforeQuery'];
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
		if (!TYPES.includes(hook.type))
			throw badRequest(`Each hook needs a "type": ${TYPES.join(', ')}.`);
		if (
			hook.runOn !== undefined &&
			(!Array.isArray(hook.runOn) || hook.runOn.some((event) => !EVENTS.includes(event)))
		)
			throw badRequest(`A hook's "runOn" must be an array of ${EVENTS.join(', ')}.`);
		if (hook.type === 'web' && !isObject(hook.payload))
			throw badRequest('A web hook needs a "payload" object: {method, endpoint, body, headers}.');
		if (hook.payload !== undefined && !isObject(hook.payload))
			throw badRequest('A hook\'s "payload" must be an object.');
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

/** A name of the context that Handlebars' strict mode finds: each step an own property. */
function strictLookup(context, path) {
	let value = context;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) {
			throw new Error(`"${part}" not defined in ${path}`);
		}
		value = value[part];
	}
	return value;
}

/** The `strict` reading of `hookValues`: every value compiled as a template (see above). */
function renderStrict(value, context) {
	if (Array.isArray(value)) return value.map((item) => renderStrict(item, context));
	if (isObject(value))
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderStrict(v, context)]));
	if (typeof value !== 'string') {
		throw new Error(
			`You must pass a string or Handlebars AST to Handlebars.compile. You passed ${JSON.stringify(value)}`,
		);
	}
	return value.replace(/\{\{(\{?)\s*([^{}\s]+)\s*\}?\}\}/g, (_, raw, path) => {
		const found = strictLookup(context, path);
		const text = found === undefined || found === null ? '' : String(found);
		return raw ? text : escapeHtml(text);
	});
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

/** The values a hook's templates can name for one entry, in the sandbox's `hookTemplates` reading. */
function contextOf(state, dataSource, event, entry) {
	if (readingsOf(state).hookTemplates === 'columns') return { ...entry.data };
	return {
		...entry.data,
		entry,
		dataSource: { id: dataSource.id, name: dataSource.name },
		event,
	};
}

function matches(hook, data) {
	const conditions = Array.isArray(hook.conditions) ? hook.conditions : [];
	try {
		return conditions.every((condition) => compileWhere(condition)(data));
	} catch {
		return false;
	}
}

/**
 * A hook limited to the saves of given sources: the form builder's email hooks carry
 * `triggers: [formUuid]` and its forms write with `source: formUuid` (`Fliplet/
 * fliplet-widget-form-builder: js/libs/builder.js`, `js/libs/form.js`). How a source travels on
 * the wire is not public, and no write through the API names one, so such a hook never runs here.
 */
const limitedToSources = (hook) => Array.isArray(hook.triggers) && hook.triggers.length > 0;

function hooksFor(dataSource, event) {
	return (dataSource.hooks ?? []).filter(
		(hook) => Array.isArray(hook.runOn) && hook.runOn.includes(event) && !limitedToSources(hook),
	);
}

function log(state, record) {
	if (!state.hookLog) state.hookLog = [];
	state.hookLog.push({ ...record, at: new Date(state.now()).toISOString() });
}

/** One web call for one entry, recorded in `state.hookCalls`. */
async function call(state, record, payload) {
	record.at = Date.now();
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
	const body = record.method === 'GET' || record.method === 'HEAD' ? undefined : payload.body;
	Object.assign(record, await send(record.method, url, headers, body), {
		ms: Date.now() - record.at,
	});
}

/** A web hook's call, planned now (rendered for the entry as stored) and made later, in turn. */
function planWebCall(state, dataSource, payload, event, entry) {
	const method = String(payload.method || 'POST').toUpperCase();
	const record = {
		dataSourceId: dataSource.id,
		event,
		entryId: entry.id,
		method,
		endpoint: payload.endpoint,
		headers: isObject(payload.headers) ? payload.headers : {},
		body: payload.body,
		at: undefined,
		status: undefined,
	};
	return () => call(state, record, payload);
}

const STRING_OPERATIONS = {
	trim: (text) => text.trim(),
	lower: (text) => text.toLowerCase(),
	upper: (text) => text.toUpperCase(),
	hash: (text) => crypto.createHash('sha256').update(text).digest('hex'),
};

/**
 * An `operations` payload applied to `data` (a new object): a list of operations changes a
 * column that `data` holds (only `only`'s columns when given), a text sets the column to the text
 * rendered with `context`. Returns the new data and the columns it changed.
 */
function applyOperations(payload, data, context, only) {
	const result = { ...data };
	const changed = [];
	for (const [column, operation] of Object.entries(payload ?? {})) {
		if (typeof operation === 'string') {
			result[column] = renderString(operation, context);
			changed.push(column);
		} else if (Array.isArray(operation) && column in result && (!only || column in only)) {
			const value = result[column];
			if (value === null || value === undefined || typeof value === 'object') continue;
			result[column] = operation.reduce(
				(text, name) => (STRING_OPERATIONS[name] ? STRING_OPERATIONS[name](text) : text),
				String(value),
			);
			changed.push(column);
		}
	}
	return { data: result, changed };
}

/**
 * The data about to be stored, after the data source's `beforeSave` operations. `sent` is what
 * the request writes, `current` the entry's stored data (an update merges `sent` into it): list
 * operations change only the columns sent (a stored password is not hashed again), conditions
 * and templates see the entry as it will be. Returns a new object; `sent` is left as it was.
 */
function beforeSave(state, dataSource, event, sent, current = undefined) {
	const hooks = hooksFor(dataSource, 'beforeSave').filter((hook) => hook.type === 'operations');
	let data = { ...sent };
	for (const hook of hooks) {
		const whole = { ...(current?.data ?? {}), ...data };
		if (!matches(hook, whole)) continue;
		const context = contextOf(state, dataSource, event, { ...(current ?? {}), data: whole });
		const applied = applyOperations(hook.payload, data, context, sent);
		data = applied.data;
		log(state, {
			dataSourceId: dataSource.id,
			event: 'beforeSave',
			on: event,
			entryId: current?.id,
			type: 'operations',
			changed: applied.changed,
		});
	}
	return data;
}

/** The subscription ids a push hook's `filter` names: entries matching it, by flPushSubscriptionId. */
function filteredSubscriptions(state, filter, context) {
	if (!isObject(filter) || filter.dataSourceId === undefined) return undefined;
	const where = render(filter.match ?? {}, context);
	let test;
	try {
		test = compileWhere(where);
	} catch {
		return [];
	}
	return store
		.entriesOf(state, Number(filter.dataSourceId))
		.filter((entry) => test(entry.data))
		.map((entry) => Number(entry.data.flPushSubscriptionId))
		.filter(Number.isInteger);
}

/** Runs one hook for one stored entry; returns a web call to make later, if it is one. */
function runOne(state, dataSource, hook, event, entry) {
	const context = contextOf(state, dataSource, event, entry);
	const base = { dataSourceId: dataSource.id, event, entryId: entry.id, type: hook.type };
	if (hook.type === 'operations') {
		const stored = store.findEntry(state, dataSource.id, entry.id) ?? entry;
		const applied = applyOperations(hook.payload, stored.data, context);
		store.replaceEntry(state, dataSource.id, { ...stored, data: applied.data });
		log(state, { ...base, changed: applied.changed });
		return undefined;
	}
	let payload;
	try {
		payload =
			readingsOf(state).hookValues === 'strict'
				? renderStrict(hook.payload ?? {}, context)
				: render(hook.payload ?? {}, context);
	} catch (error) {
		log(state, { ...base, error: error.message });
		return undefined;
	}
	if (hook.type === 'push') {
		const push = sendPush(state, {
			appId: Number(hook.appId),
			payload,
			subscriptionIds: filteredSubscriptions(state, hook.filter, context),
			source: { dataSourceId: dataSource.id, entryId: entry.id, event },
		});
		log(state, { ...base, payload, devices: push.devices.length });
		return undefined;
	}
	log(state, { ...base, payload });
	if (hook.type === 'web') return planWebCall(state, dataSource, payload, event, entry);
	return undefined;
}

/**
 * Runs the data source's `event` hooks for each entry, after the change was stored. Returns at
 * once: web calls are queued (one after another) and the API answer does not wait for them; the
 * other kinds are recorded (and operations applied) before it returns.
 */
function runHooks(state, dataSource, event, entries) {
	if (!KINDS.includes(event) || !entries.length) return;
	const hooks = hooksFor(dataSource, event);
	if (!hooks.length) return;
	queueOf(state);
	const jobs = [];
	for (const entry of entries) {
		for (const hook of hooks) {
			if (!matches(hook, entry.data)) continue;
			const job = runOne(state, dataSource, hook, event, entry);
			if (job) jobs.push(job);
		}
	}
	if (!jobs.length) return;
	state.hookQueue = queueOf(state).then(async () => {
		for (const job of jobs) await job().catch(() => undefined);
	});
}

/** Resolves once every hook call queued so far has finished (for tests and scripts). */
function hooksSettled(state) {
	return queueOf(state);
}

module.exports = { updateHooks, beforeSave, runHooks, hooksSettled, render };
