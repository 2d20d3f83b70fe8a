'use strict';

const { badRequest, notFound, isObject, truthy, wholeNumber } = require('../http');
const { requireApp, requireOrganization } = require('../access');
const { iso } = require('../state');
const { openDataSource, openOwnDataSource } = require('../dataSources/access');
const store = require('../dataSources/store');
const versions = require('../dataSources/versions');
const hooks = require('../dataSources/hooks');
const trash = require('../dataSources/trash');
const { sortEntries, applyJoins, aggregate } = require('../dataSources/query');
const { entryWhere, attributePicker } = require('../dataSources/columnNames');
const { checkOrder } = require('../dataSources/order');
const { readingsOf } = require('../dataSources/readings');
const { checkAccessRules } = require('../dataSources/accessRules');
const { valueAt } = require('../dataSources/filters');
const { multipartEntryData } = require('../media/entryUploads');

const AREA = 'dataSources';
const DS = '/v1/data-sources/:ds';

/** The app or organization a list or create names: `{appId, organizationId}`. */
function context(state, principal, query) {
	if (query.appId !== undefined) {
		const { draft, publishedId } = requireApp(state, principal, query.appId);
		// An app never published (productionAppId null) keeps its data sources on its own id.
		return { appId: publishedId ?? draft.id, organizationId: draft.organizationId };
	}
	if (query.organizationId !== undefined) {
		if (principal.kind === 'app') {
			throw badRequest(
				'App API tokens work within their app: pass appId instead of organizationId.',
			);
		}
		return {
			appId: null,
			organizationId: requireOrganization(state, principal, query.organizationId).id,
		};
	}
	throw badRequest('The "appId" or "organizationId" query parameter is required.');
}

/**
 * A list's scope: the app or organization it names, or without one the token's own data sources
 * (its app's for an app token, its organization's otherwise), as the platform's sync agent and
 * the Power Automate connector list them. Under the reading `contextRequired` (SPEC), 400 instead.
 */
function scopedOrOwn(state, principal, query) {
	if (query.appId !== undefined || query.organizationId !== undefined)
		return context(state, principal, query);
	if (readingsOf(state).dataSourceList === 'contextRequired')
		return context(state, principal, query);
	const appId = principal.kind === 'app' ? principal.appId : null;
	return { appId, organizationId: principal.organizationId };
}

function entryId(raw) {
	const id = Number(raw);
	if (!Number.isInteger(id)) throw notFound(`Entry ${raw} not found`);
	return id;
}

function requireEntry(state, dataSource, raw) {
	const entry = store.findEntry(state, dataSource.id, entryId(raw));
	if (!entry) throw notFound(`Entry ${raw} not found`);
	return entry;
}

function touch(state, dataSource) {
	dataSource.updatedAt = iso(state.now());
}

/** Called after every change of content: columns, timestamp, version snapshot. */
function changed(state, dataSource, principal, datas) {
	store.learnColumns(dataSource, datas);
	touch(state, dataSource);
	versions.snapshot(state, dataSource, 'commit', principal);
}

function flatData(body, what) {
	if (!isObject(body)) throw badRequest(`The ${what} body must be an object of column to value.`);
	return body;
}

/** Reads a joined data source by `{id}` or, as the platform also allows, by `{name}`. */
function readJoinedFor(ctx) {
	return ({ id, name }) => {
		const byId = id !== undefined;
		const joined = openDataSource(
			{ ...ctx, params: { ds: String(byId ? id : name) }, query: byId ? {} : { dsn: '' } },
			'read',
		);
		return store.entriesOf(ctx.state, joined.id);
	};
}

/** SPEC: attributes are a list of column names, join an object (order: see checkOrder). */
function checkSelectShape(body) {
	const names = body.attributes;
	if (names !== undefined && (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))) {
		throw badRequest('"attributes" must be a list of column names.');
	}
	if (body.join !== undefined && !isObject(body.join))
		throw badRequest('"join" must be an object of join name to join options.');
}

/** Entries are stored in id order: no order, or ascending id (checked by checkOrder), needs no sorting. */
function inIdOrder(order) {
	if (order === undefined || order === null || (Array.isArray(order) && !order.length)) return true;
	if (order.length !== 1) return false;
	const [path, direction] = order[0];
	return path === 'id' && (direction === undefined || /^ASC$/i.test(String(direction)));
}

/** A page of the whole data source in id order: found by position, without touching the rest. */
function selectPage(ctx, dataSource, body) {
	const total = store.countOf(ctx.state, dataSource.id);
	const offset = wholeNumber(body.offset, 'offset') ?? 0;
	const limit = wholeNumber(body.limit, 'limit');
	const end = limit === undefined ? total : offset + limit;
	return { total, offset, limit, page: store.pageOf(ctx.state, dataSource.id, offset, end) };
}

function select(ctx, dataSource, body) {
	checkSelectShape(body);
	const sortKeys = checkOrder(body.order, dataSource);
	if (body.aggregate !== undefined) {
		// The pipeline sees whole entries, as on the platform: `$data.Column`, `$id`, `$createdAt`.
		const found = filtered(ctx, dataSource, body.where);
		return { body: { entries: aggregate(found, body.aggregate) } };
	}
	if (truthy(body.distinct)) return distinctSelect(ctx, dataSource, body, sortKeys);
	const plain = body.where === undefined && body.join === undefined;
	const { total, offset, limit, page } =
		plain && inIdOrder(body.order)
			? selectPage(ctx, dataSource, body)
			: cutPage(matching(ctx, dataSource, body, sortKeys), body);
	const readings = readingsOf(ctx.state);
	const pick = attributePicker(body.attributes, readings.attributes, {
		foreign: readings.foreignAttributes,
	});
	return { body: paged(body, dataSource, page.map(pick), { total, offset, limit }) };
}

/** `{entries}`, with `pagination` when asked for. */
function paged(body, dataSource, entries, { total, offset, limit }) {
	const response = { entries };
	if (truthy(body.includePagination)) {
		response.pagination = {
			total,
			limit: limit ?? total,
			offset,
			count: entries.length,
			dataSourceId: dataSource.id,
		};
	}
	return response;
}

/**
 * `distinct: true` (beside where and attributes, as the platform's sync agent sends it): the
 * selected attributes of each entry, each combination once (in the order of the first entry that
 * has it); paging applies to the distinct rows.
 */
function distinctSelect(ctx, dataSource, body, sortKeys) {
	const readings = readingsOf(ctx.state);
	const pick = attributePicker(body.attributes, readings.attributes, {
		distinct: true,
		foreign: readings.foreignAttributes,
	});
	const seen = new Set();
	const rows = [];
	for (const entry of matching(ctx, dataSource, body, sortKeys)) {
		const row = pick(entry);
		const key = JSON.stringify(row);
		if (seen.has(key)) continue;
		seen.add(key);
		rows.push(row);
	}
	const { page, ...position } = cutPage(rows, body);
	return { body: paged(body, dataSource, page, position) };
}

/**
 * The entries a `where` keeps (all of them without one), in the sandbox's readings; only those an
 * index points at are tested when it can (see columnIndex.js), with the same answer.
 */
function filtered(ctx, dataSource, where) {
	if (where === undefined) return store.entriesOf(ctx.state, dataSource.id);
	const tested =
		store.candidatesFor(ctx.state, dataSource.id, where) ??
		store.entriesOf(ctx.state, dataSource.id);
	return tested.filter(entryWhere(where, readingsOf(ctx.state)));
}

/** The entries a query's where keeps, with its joins, in its order. */
function matching(ctx, dataSource, body, sortKeys) {
	let found = filtered(ctx, dataSource, body.where);
	if (body.join !== undefined) found = applyJoins(found, body.join, readJoinedFor(ctx));
	return sortEntries(found, sortKeys);
}

/** The query's page (offset, limit) of `rows`, with the total it was cut from. */
function cutPage(rows, body) {
	const offset = wholeNumber(body.offset, 'offset') ?? 0;
	const limit = wholeNumber(body.limit, 'limit');
	const page = rows.slice(offset, limit === undefined ? undefined : offset + limit);
	return { total: rows.length, offset, limit, page };
}

/**
 * A delete query removes the entries its where keeps and answers, in the sandbox's reading,
 * `{deletedCount}` (SPEC) or the deleted entries (`{entries}`, the source-checked JS docs).
 */
function deleteQuery(ctx, dataSource, body) {
	// Filtered into a list of its own: the store's list changes as they are removed.
	const gone = filtered(ctx, dataSource, body.where ?? {});
	const deletedCount = store.removeEntries(
		ctx.state,
		dataSource.id,
		gone.map((entry) => entry.id),
	);
	if (deletedCount) changed(ctx.state, dataSource, ctx.principal, []);
	if (readingsOf(ctx.state).deleteAnswer === 'entries') return { body: { entries: gone } };
	return { body: { deletedCount } };
}

const JSON_PARAMETERS = ['where', 'order', 'attributes', 'join', 'aggregate'];

/** A query's options read from a query string; the JSON ones are parsed (400 when not JSON). */
function queryFromString(query) {
	const body = { ...query };
	delete body.dsn;
	for (const name of JSON_PARAMETERS) {
		if (typeof body[name] !== 'string') continue;
		try {
			body[name] = JSON.parse(body[name]);
		} catch {
			throw badRequest(`"${name}" in the query string must be JSON.`);
		}
	}
	return body;
}

/**
 * The entry-level `order` (Studio's row order, sortable as `[['order', 'ASC'], ['id', 'ASC']]`):
 * kept on an entry once a commit gives it one; entries without it sort after those with it.
 */
const withOrder = (entry, order) => (order === undefined ? entry : { ...entry, order });

const HOOK_KINDS = ['insert', 'update'];

const isIdList = (value) =>
	Array.isArray(value) &&
	value.every((id) => Number.isInteger(id) || (typeof id === 'string' && /^\d+$/.test(id)));

/**
 * Commit: `{data}` inserts, `{id, data}` updates, `delete` removes; without `append` whatever
 * was not sent is removed. `extend` merges sent columns into the stored ones.
 */
function commit(ctx, dataSource, body) {
	const { state, principal } = ctx;
	if (!Array.isArray(body.entries)) throw badRequest('"entries" (array) is required.');
	const append = truthy(body.append);
	const extend = truthy(body.extend);
	if (body.delete !== undefined && !isIdList(body.delete))
		throw badRequest('"delete" must be an array of entry ids.');
	if (
		body.runHooks !== undefined &&
		(!Array.isArray(body.runHooks) || body.runHooks.some((kind) => !HOOK_KINDS.includes(kind)))
	) {
		throw badRequest('"runHooks" must be an array of "insert" and/or "update".');
	}
	const toDelete = (body.delete ?? []).map(Number);
	const wellFormed = (item) =>
		isObject(item) &&
		isObject(item.data) &&
		(item.order === undefined || item.order === null || Number.isInteger(item.order));
	if (!body.entries.every(wellFormed))
		throw badRequest(
			'Each entry must be {data} or {id, data}, with data an object (and order, if given, a whole number).',
		);
	const inserts = body.entries.filter((item) => item.id === undefined);
	const updates = body.entries.filter((item) => item.id !== undefined);
	const needs = [];
	if (inserts.length) needs.push('write');
	if (updates.length) needs.push('update');
	if (toDelete.length || !append) needs.push('delete');
	for (const permission of needs) openDataSource(ctx, permission);

	const at = iso(state.now());
	// The entries of the kinds `runHooks` lists go through the `beforeSave` operations too.
	const saved = (kind, data, current) =>
		body.runHooks?.includes(kind) ? hooks.beforeSave(state, dataSource, kind, data, current) : data;
	const replaced = new Map();
	for (const item of updates) {
		const current = store.findEntry(state, dataSource.id, Number(item.id));
		if (!current) throw notFound(`Entry ${item.id} not found in data source ${dataSource.id}`);
		const sent = saved('update', item.data, current);
		const data = extend ? { ...current.data, ...sent } : { ...sent };
		replaced.set(
			current.id,
			withOrder(
				{
					id: current.id,
					data,
					dataSourceId: current.dataSourceId,
					createdAt: current.createdAt,
					updatedAt: at,
				},
				item.order !== undefined ? item.order : current.order,
			),
		);
	}
	// The parsed body is this request's own, and entries are never changed in place: no copy.
	const created = inserts.map((item) =>
		withOrder(store.newEntry(state, dataSource, saved('insert', item.data), at), item.order),
	);
	store.applyChanges(state, dataSource.id, {
		replaced,
		gone: new Set(toDelete),
		keepOthers: append,
		created,
	});
	const updatedIds = new Set(replaced.keys());
	recordHooks(state, dataSource, body.runHooks, created, updatedIds);
	changed(
		state,
		dataSource,
		principal,
		body.entries.map((item) => item.data),
	);

	if (body.returnEntries === false || body.returnEntries === 'false') {
		const clientIds = inserts
			.map((item, i) => ({ clientId: item.clientId, id: created[i].id }))
			.filter((pair) => pair.clientId !== undefined);
		return { body: { clientIds } };
	}
	return { body: { entries: store.entriesOf(state, dataSource.id) } };
}

function recordHooks(state, dataSource, runHooks, created, updatedIds) {
	if (!Array.isArray(runHooks) || !runHooks.length) return;
	if (runHooks.includes('insert')) hooks.runHooks(state, dataSource, 'insert', created);
	if (runHooks.includes('update'))
		hooks.runHooks(
			state,
			dataSource,
			'update',
			[...updatedIds].map((id) => store.findEntry(state, dataSource.id, id)),
		);
	state.hookRuns = state.hookRuns ?? [];
	if (runHooks.includes('insert') && created.length) {
		state.hookRuns.push({
			dataSourceId: dataSource.id,
			kind: 'insert',
			entryIds: created.map((e) => e.id),
		});
	}
	if (runHooks.includes('update') && updatedIds.size) {
		state.hookRuns.push({ dataSourceId: dataSource.id, kind: 'update', entryIds: [...updatedIds] });
	}
}

/**
 * Whether a bulk import runs the data source's insert hooks for each new entry. Appending does
 * unless told `runHooks: false`, as on the platform (its JS API's append runs them by default).
 * Replacing runs them only when asked with `runHooks: true` (the platform's documentation is
 * silent there).
 */
function bulkRunsHooks(runHooks, append) {
	if (runHooks === undefined) return append;
	if (typeof runHooks === 'boolean') return runHooks;
	if (runHooks === 'true' || runHooks === 'false') return runHooks === 'true';
	throw badRequest('"runHooks" of a bulk import must be true or false.');
}

const routes = [
	{
		method: 'GET',
		path: '/v1/data-sources',
		area: AREA,
		handler: ({ state, principal, query }) => {
			const { appId, organizationId } = scopedOrOwn(state, principal, query);
			const dataSources = state.dataSources.filter(
				(ds) =>
					ds.organizationId === organizationId &&
					(appId === null || ds.appId === appId) &&
					(query.type === undefined || ds.type === query.type),
			);
			return { body: { dataSources } };
		},
	},
	{
		method: 'POST',
		path: '/v1/data-sources',
		area: AREA,
		handler: ({ state, principal, query, body }) => {
			// The context goes in the query (SPEC); the platform's own tools also send it in the body.
			const named = (source) =>
				isObject(source) && (source.appId !== undefined || source.organizationId !== undefined);
			const { appId, organizationId } = context(
				state,
				principal,
				named(query) || !named(body) ? query : body,
			);
			const name = isObject(body) && typeof body.name === 'string' ? body.name.trim() : '';
			if (!name) throw badRequest('The "name" of the data source is required.');
			if (
				state.dataSources.some((ds) => ds.organizationId === organizationId && ds.name === name)
			) {
				throw badRequest(`A data source named "${name}" already exists.`);
			}
			const accessRules =
				body.accessRules === undefined ? undefined : checkAccessRules(body.accessRules);
			const at = iso(state.now());
			const dataSource = {
				id: state.nextId++,
				name,
				appCapabilities: null,
				hooks: [],
				encrypted: false,
				columns: null,
				type: typeof body.type === 'string' && body.type ? body.type : null,
				public: false,
				createdAt: at,
				updatedAt: at,
				appId,
				organizationId,
				...(accessRules ? { accessRules } : {}),
			};
			state.dataSources.push(dataSource);
			return { status: 201, body: { dataSource } };
		},
	},
	{
		method: 'GET',
		path: DS,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'read');
			if (!truthy(ctx.query.includeEntriesCount)) return { body: { dataSource } };
			const entriesCount = store.countOf(ctx.state, dataSource.id);
			return { body: { dataSource: { ...dataSource, entriesCount } } };
		},
	},
	{
		method: 'PUT',
		path: DS,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openOwnDataSource(ctx, 'update');
			const body = isObject(ctx.body) ? ctx.body : {};
			hooks.updateHooks(dataSource, body);
			if (body.name !== undefined) {
				if (typeof body.name !== 'string' || !body.name.trim())
					throw badRequest('"name" must be a non-empty string.');
				dataSource.name = body.name.trim();
			}
			if (body.columns !== undefined) {
				if (!Array.isArray(body.columns) || body.columns.some((c) => typeof c !== 'string')) {
					throw badRequest('"columns" must be an array of strings.');
				}
				dataSource.columns = [...body.columns];
			}
			dataSource.definition = dataSource.definition ?? {};
			touch(ctx.state, dataSource);
			return { body: { dataSource } };
		},
	},
	{
		method: 'DELETE',
		path: DS,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openOwnDataSource(ctx, 'delete');
			trash.trash(ctx.state, dataSource);
			return { status: 200 };
		},
	},
	{
		method: 'POST',
		path: `${DS}/data`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const body = isObject(ctx.body) ? ctx.body : {};
			const append = truthy(ctx.query.append) || truthy(body.append);
			const dataSource = openDataSource(ctx, 'write', ...(append ? [] : ['delete']));
			if (!Array.isArray(body.entries) || body.entries.some((data) => !isObject(data))) {
				throw badRequest('"entries" must be an array of objects (column to value).');
			}
			const at = iso(ctx.state.now());
			const runsHooks = bulkRunsHooks(ctx.query.runHooks ?? body.runHooks, append);
			const created = body.entries.map((data) =>
				store.newEntry(
					ctx.state,
					dataSource,
					runsHooks ? hooks.beforeSave(ctx.state, dataSource, 'insert', data) : { ...data },
					at,
				),
			);
			if (append) store.appendEntries(ctx.state, dataSource.id, created);
			else store.setEntries(ctx.state, dataSource.id, created);
			changed(ctx.state, dataSource, ctx.principal, body.entries);
			if (runsHooks) recordHooks(ctx.state, dataSource, ['insert'], created, new Set());
			return { status: 200 };
		},
	},
	{
		method: 'PUT',
		path: `${DS}/data`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'write');
			const isMultipart = isObject(ctx.body) && isObject(ctx.body.multipart);
			const uploaded = isMultipart
				? multipartEntryData(ctx, dataSource)
				: { data: flatData(ctx.body, 'insert'), stored: [] };
			const data = hooks.beforeSave(ctx.state, dataSource, 'insert', uploaded.data);
			const entry = store.newEntry(ctx.state, dataSource, data);
			for (const file of uploaded.stored) file.dataSourceEntryId = entry.id;
			store.appendEntries(ctx.state, dataSource.id, [entry]);
			changed(ctx.state, dataSource, ctx.principal, [data]);
			hooks.runHooks(ctx.state, dataSource, 'insert', [entry]);
			// 200, as the source-checked REST docs say (SPEC gives 200 or 201).
			return { body: isMultipart ? { ...entry, deletedAt: null } : entry };
		},
	},
	{
		method: 'POST',
		path: `${DS}/commit`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => commit(ctx, openDataSource(ctx), isObject(ctx.body) ? ctx.body : {}),
	},
	{
		method: 'POST',
		path: `${DS}/data/query`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const body = isObject(ctx.body) ? ctx.body : {};
			const type = body.type ?? 'select';
			if (type === 'delete') return deleteQuery(ctx, openDataSource(ctx, 'delete'), body);
			if (type !== 'select') throw badRequest('"type" must be "select" or "delete".');
			return select(ctx, openDataSource(ctx, 'read'), body);
		},
	},
	{
		// The query as a query string (a read only): JSON text in where, order, attributes, join
		// and aggregate is parsed. Before the entry route, which would read "query" as an entry id.
		method: 'GET',
		path: `${DS}/data/query`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const body = queryFromString(ctx.query);
			if (body.type !== undefined && body.type !== 'select')
				throw badRequest('A GET query only selects: "type" must be "select" (or left out).');
			return select(ctx, openDataSource(ctx, 'read'), body);
		},
	},
	{
		method: 'GET',
		path: `${DS}/data/:entryId`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => ({
			body: requireEntry(ctx.state, openDataSource(ctx, 'read'), ctx.params.entryId),
		}),
	},
	{
		method: 'PUT',
		path: `${DS}/data/:entryId`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'update');
			const current = requireEntry(ctx.state, dataSource, ctx.params.entryId);
			// The platform merges the sent columns into the entry (its own widgets update one column
			// of an entry this way); replacing an entry's data is a commit with `extend: false`. A
			// multipart update uploads its files onto the entry, as the JS API's update with FormData.
			const uploaded =
				isObject(ctx.body) && isObject(ctx.body.multipart)
					? multipartEntryData(ctx, dataSource, current.data)
					: { data: flatData(ctx.body, 'update'), stored: [] };
			for (const file of uploaded.stored) file.dataSourceEntryId = current.id;
			const sent = uploaded.data;
			const data = {
				...current.data,
				...hooks.beforeSave(ctx.state, dataSource, 'update', sent, current),
			};
			const entry = { ...current, data, updatedAt: iso(ctx.state.now()) };
			store.replaceEntry(ctx.state, dataSource.id, entry);
			changed(ctx.state, dataSource, ctx.principal, [data]);
			hooks.runHooks(ctx.state, dataSource, 'update', [entry]);
			return { status: 200, body: entry };
		},
	},
	{
		method: 'DELETE',
		path: `${DS}/data/:entryId`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'delete');
			const entry = requireEntry(ctx.state, dataSource, ctx.params.entryId);
			store.removeEntries(ctx.state, dataSource.id, [entry.id]);
			changed(ctx.state, dataSource, ctx.principal, []);
			return { body: {} };
		},
	},
	{
		method: 'GET',
		path: `${DS}/indexes/:columns`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'read');
			const columns = ctx.params.columns
				.split(',')
				.map((column) => column.trim())
				.filter(Boolean);
			if (!columns.length) throw badRequest('Give at least one column name.');
			const entries = store.entriesOf(ctx.state, dataSource.id);
			const indexes = {};
			for (const column of columns) {
				const seen = new Map();
				for (const entry of entries) {
					const value = valueAt(entry.data, column);
					if (value === undefined || value === null) continue;
					const key =
						typeof value === 'object' ? JSON.stringify(value) : `${typeof value}:${value}`;
					if (!seen.has(key)) seen.set(key, value);
				}
				indexes[column] = [...seen.values()];
			}
			return { body: { indexes } };
		},
	},
	{
		method: 'GET',
		path: `${DS}/versions`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => ({
			body: { versions: versions.newestFirst(ctx.state, openDataSource(ctx, 'read').id) },
		}),
	},
	...['GET', 'POST'].map((method) => ({
		method,
		path: `${DS}/versions/:versionId/data`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'read');
			const version = requireVersion(ctx.state, dataSource, ctx.params.versionId);
			const options = method === 'POST' && isObject(ctx.body) ? ctx.body : ctx.query;
			const where = method === 'POST' ? options.where : undefined;
			const matches = entryWhere(where, readingsOf(ctx.state));
			let entries = versions.versionEntries(ctx.state, version).filter(matches);
			const limit = wholeNumber(options.limit, 'limit');
			if (limit !== undefined) entries = entries.slice(0, limit);
			return { body: { entries } };
		},
	})),
	{
		method: 'POST',
		path: `${DS}/versions/:versionId/restore`,
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openOwnDataSource(ctx, 'write', 'delete');
			const version = requireVersion(ctx.state, dataSource, ctx.params.versionId);
			versions.restore(ctx.state, dataSource, version, ctx.principal);
			return { status: 200 };
		},
	},
];

function requireVersion(state, dataSource, raw) {
	const version = versions.versionsOf(state, dataSource.id).find((v) => v.id === Number(raw));
	if (!version) throw notFound(`Version ${raw} not found`);
	return version;
}

module.exports = { routes };
