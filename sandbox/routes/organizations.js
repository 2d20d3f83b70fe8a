'use strict';

const { randomBytes } = require('node:crypto');
const { Query } = require('mingo');
const { badRequest, isObject, notFound, truthy } = require('../http');
const { findAppPair, requireOrganization } = require('../access');
const { addToken, iso } = require('../state');
const { ANALYTICS_TYPES } = require('../seeds/organizations');
const { readingsOf } = require('../dataSources/readings');

/**
 * Audit logs and analytics. The platform's JS API reads both with POST and a JSON body (its
 * audit-log screen sends startDate, endDate, appId, sort, order, limit, offset, includePagination,
 * where, userType, sessionId, fields and format); GET with a query string works too (SPEC).
 * `fields` may name joined values: `user.email`, `user.type`, `app.name`, `typeDescription`,
 * `dataString` (the data as JSON text); `where` can filter on them too. A record's user type is
 * `studio` for Studio users and `app` for API and integration tokens.
 */

const SORTS = ['id', 'createdAt', 'type'];
const USER_TYPES = ['app', 'appAction', 'studio'];

/** Short descriptions of the log types, as the audit-log screen shows beside a type. */
const TYPE_DESCRIPTIONS = {
	'app.create': 'An app was created',
	'app.publish': 'An app was published',
	'app.settings.update': "An app's settings were updated",
	'app.analytics.pageView': 'A screen of an app was viewed',
	'app.analytics.event': 'An app sent an analytics event',
	'app.view': 'An app was opened',
	'app.update': 'An app downloaded an update',
	'dataSource.entry.create': 'A data source entry was created',
	'form.submit': 'A form was submitted',
	'studio.analytics.presence': 'A user was active in Studio',
	'user.login': 'A user signed in',
};
const DEFAULT_LIMIT = 50;
/**
 * The most records one page holds: SPEC's 500 for JSON (the audit-log screen's pages are 25 to
 * 500); a CSV export takes up to 100,000, which the screen's "Export to CSV" asks for in one
 * request (`Fliplet/fliplet-widget-audit-log: src/components/LogTable.vue`, `limit: 100000`).
 * The reading `auditLogLimit` (readings.js) plays a platform that holds CSV to SPEC's 500 too,
 * serving 500 (`capped`) or refusing more (`refused`).
 */
const MAX_LIMIT = { json: 500, csv: 100_000 };
const SPEC_MAX_LIMIT = 500;

/** The page size served for an asked limit, in the sandbox's reading of the maximum. */
function servedLimit(state, asked, format) {
	const reading = readingsOf(state).auditLogLimit;
	if (reading === 'refused' && asked > SPEC_MAX_LIMIT)
		throw badRequest(`"limit" must be ${SPEC_MAX_LIMIT} or less.`);
	return Math.min(asked, reading === 'studio' ? MAX_LIMIT[format] : SPEC_MAX_LIMIT);
}
const DAY = 86_400_000;

/** A parameter given as a list: an array, or (on GET) a comma-separated string. */
function listParam(value, name) {
	if (value === undefined || value === null || value === '') return undefined;
	if (Array.isArray(value)) return value.map(String);
	if (typeof value === 'string')
		return value
			.split(',')
			.map((part) => part.trim())
			.filter(Boolean);
	throw badRequest(`"${name}" must be a string or an array of strings.`);
}

function dateParam(value, name) {
	if (value === undefined || value === null || value === '') return undefined;
	const ms = Date.parse(String(value));
	if (Number.isNaN(ms)) throw badRequest(`"${name}" must be an ISO 8601 date.`);
	return ms;
}

function integerParam(value, name, fallback) {
	if (value === undefined || value === null || value === '') return fallback;
	const number = Number(value);
	if (!Number.isInteger(number) || number < 0)
		throw badRequest(`"${name}" must be a whole number.`);
	return number;
}

function logParams(method, query, body) {
	const input = method === 'POST' && isObject(body) ? { ...query, ...body } : query;
	const sort = input.sort ?? 'createdAt';
	if (!SORTS.includes(sort)) throw badRequest(`"sort" must be one of ${SORTS.join(', ')}.`);
	const order = String(input.order ?? 'DESC').toUpperCase();
	if (order !== 'ASC' && order !== 'DESC') throw badRequest('"order" must be ASC or DESC.');
	const format = input.format ?? 'json';
	if (format !== 'json' && format !== 'csv') throw badRequest('"format" must be json or csv.');
	const appId =
		input.appId === undefined || input.appId === ''
			? undefined
			: integerParam(input.appId, 'appId');
	const userTypes = listParam(input.userType, 'userType');
	for (const type of userTypes ?? []) {
		if (!USER_TYPES.includes(type))
			throw badRequest(`"userType" must list values of ${USER_TYPES.join(', ')}.`);
	}
	let where = input.where;
	if (typeof where === 'string' && where.trim()) {
		try {
			where = JSON.parse(where);
		} catch {
			throw badRequest('"where" must be a JSON object.');
		}
	}
	if (where !== undefined && where !== null && where !== '' && !isObject(where))
		throw badRequest('"where" must be an object.');
	return {
		types: listParam(input.type, 'type'),
		appId,
		sessionIds: listParam(
			typeof input.sessionId === 'number' ? String(input.sessionId) : input.sessionId,
			'sessionId',
		),
		userTypes,
		where: isObject(where) ? whereQuery(where) : undefined,
		includePagination: truthy(input.includePagination),
		fields: listParam(input.fields, 'fields'),
		startDate: dateParam(input.startDate, 'startDate'),
		endDate: dateParam(input.endDate, 'endDate'),
		sort,
		order,
		limit: integerParam(input.limit, 'limit', DEFAULT_LIMIT) || DEFAULT_LIMIT,
		offset: integerParam(input.offset, 'offset', 0),
		format,
	};
}

function compare(a, b, sort) {
	const left = a[sort];
	const right = b[sort];
	if (left < right) return -1;
	if (left > right) return 1;
	return a.id - b.id;
}

/** Sequelize-style operators of the platform's where, as mingo reads them. */
function rewriteOperator(key, value) {
	if (key === '$iLike' || key === '$like') {
		const pattern = String(value)
			.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
			.replace(/%/g, '.*')
			.replace(/_/g, '.');
		return { $regex: `^${pattern}$`, ...(key === '$iLike' ? { $options: 'i' } : {}) };
	}
	if (key === '$notIn') return { $nin: value };
	return { [key]: value };
}

/**
 * A where as the platform writes it (nested objects for joined records, e.g.
 * `{user: {email: {$iLike: '%ann%'}}}`) as a mingo query on dotted paths.
 */
function flattenWhere(where, prefix = '') {
	if (!isObject(where)) throw badRequest('Each part of "where" must be an object.');
	const out = {};
	for (const [key, value] of Object.entries(where)) {
		if (key === '$and' || key === '$or' || key === '$nor') {
			if (!Array.isArray(value)) throw badRequest(`"${key}" must be an array.`);
			out[key] = value.map((part) => flattenWhere(part, prefix));
		} else if (key.startsWith('$')) {
			Object.assign(out, rewriteOperator(key, value));
		} else if (isObject(value) && Object.keys(value).every((inner) => inner.startsWith('$'))) {
			out[prefix + key] = Object.assign(
				{},
				...Object.entries(value).map(([op, inner]) => rewriteOperator(op, inner)),
			);
		} else if (isObject(value)) {
			Object.assign(out, flattenWhere(value, `${prefix}${key}.`));
		} else out[prefix + key] = value;
	}
	return out;
}

function whereQuery(where) {
	try {
		return new Query(flattenWhere(where));
	} catch (error) {
		if (error.status) throw error;
		throw badRequest(`"where" is not a valid query: ${error.message}`);
	}
}

/** The user a record names: `studio` for Studio users, `app` for API and integration tokens. */
function logUser(state, userId) {
	if (userId === null || userId === undefined) return null;
	const user = state.users.find((u) => u.id === userId);
	if (user) return { id: user.id, email: user.email, fullName: user.fullName, type: 'studio' };
	const token = [...state.tokens.values()].find((t) => t.userId === userId);
	if (!token) return null;
	const kind = token.kind === 'user' ? 'studio' : 'app';
	return {
		id: userId,
		email: `token-${userId}@tokens.example.com`,
		fullName: token.name,
		type: kind,
	};
}

/** The record with the values the platform joins to it (user, app, type description, data text). */
function joined(state, log) {
	const app = log.appId === null ? undefined : findAppPair(state, log.appId)?.draft;
	return {
		...log,
		user: logUser(state, log.userId),
		app: app ? { id: app.id, name: app.name } : null,
		typeDescription: TYPE_DESCRIPTIONS[log.type] ?? null,
		dataString: JSON.stringify(log.data ?? {}),
	};
}

/** Whether the record with its joined values passes the user type and where filters. */
function joinedMatches(record, { userTypes, where }) {
	if (userTypes && (record.user === null || !userTypes.includes(record.user.type))) return false;
	return !where || where.test(record);
}

/** The matching records, plain: only the page is joined (see logsHandler), not every match. */
function selectLogs(state, organizationId, params) {
	const { types, appId, sessionIds, userTypes, where, startDate, endDate, sort, order } = params;
	const matching = state.logs
		.filter((log) => {
			if (log.organizationId !== organizationId) return false;
			if (types ? !types.includes(log.type) : ANALYTICS_TYPES.includes(log.type)) return false;
			if (appId !== undefined && log.appId !== appId) return false;
			if (sessionIds && !sessionIds.includes(String(log.sessionId))) return false;
			const at = Date.parse(log.createdAt);
			if (startDate !== undefined && at < startDate) return false;
			if (endDate !== undefined && at > endDate) return false;
			return true;
		})
		.filter((log) => !(userTypes || where) || joinedMatches(joined(state, log), params));
	matching.sort((a, b) => (order === 'ASC' ? compare(a, b, sort) : compare(b, a, sort)));
	return matching;
}

function whereOf(organizationId, params) {
	const where = { organizationId };
	where.type = params.types ? { $in: params.types } : { $notIn: ANALYTICS_TYPES };
	if (params.appId !== undefined) where.appId = params.appId;
	if (params.startDate !== undefined || params.endDate !== undefined) {
		where.createdAt = {};
		if (params.startDate !== undefined) where.createdAt.$gte = iso(params.startDate);
		if (params.endDate !== undefined) where.createdAt.$lte = iso(params.endDate);
	}
	return where;
}

function valueAtPath(record, path) {
	return path.split('.').reduce((value, key) => (isObject(value) ? value[key] : undefined), record);
}

/** The record's own fields, or the fields asked for of the joined record (as nested objects). */
function project(log, fields) {
	if (!fields) return log;
	const out = {};
	for (const field of fields) {
		const value = valueAtPath(log, field);
		if (value === undefined) continue;
		const keys = field.split('.');
		let target = out;
		for (const key of keys.slice(0, -1))
			target = target[key] = isObject(target[key]) ? target[key] : {};
		target[keys.at(-1)] = value;
	}
	return out;
}

function csvCell(value) {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(records, fields) {
	const columns = fields ?? Object.keys(records[0] ?? { id: null, type: null, createdAt: null });
	const lines = [columns.map(csvCell).join(',')];
	for (const record of records)
		lines.push(columns.map((column) => csvCell(valueAtPath(record, column))).join(','));
	return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

function logsHandler({ state, principal, params, query, body, method }) {
	const organization = requireOrganization(state, principal, params.id);
	const input = logParams(method, query, body);
	input.limit = servedLimit(state, input.limit, input.format);
	const matching = selectLogs(state, organization.id, input);
	const page = matching
		.slice(input.offset, input.offset + input.limit)
		.map((log) => project(input.fields ? joined(state, log) : log, input.fields));
	if (input.format === 'csv') {
		return {
			body: toCsv(page, input.fields),
			headers: {
				'Content-Type': 'text/csv; charset=utf-8',
				'Content-Disposition': `attachment; filename="organization-${organization.id}-logs.csv"`,
			},
		};
	}
	const order = [[input.sort, input.order]];
	return {
		body: {
			logs: page,
			...(input.includePagination ? { totalCount: matching.length } : {}),
			query: {
				where: whereOf(organization.id, input),
				offset: input.offset,
				limit: input.limit,
				order,
			},
		},
	};
}

/* ---- aggregated analytics, computed from the seeded logs and apps ---- */

function period(method, query, body) {
	const input = method === 'POST' && isObject(body) ? { ...query, ...body } : query;
	return {
		start: dateParam(input.startDate, 'startDate'),
		end: dateParam(input.endDate, 'endDate'),
	};
}

function inRange(log, from, to) {
	const at = Date.parse(log.createdAt);
	return at >= from && at <= to;
}

function distinct(logs, key) {
	return new Set(logs.map(key).filter((value) => value !== null && value !== undefined)).size;
}

function perDay(logs, sessionKey) {
	const days = new Map();
	for (const log of logs) {
		const day = log.createdAt.slice(0, 10);
		if (!days.has(day)) days.set(day, new Set());
		days.get(day).add(sessionKey(log));
	}
	return [...days.keys()].sort().map((day) => ({ day, count: days.get(day).size }));
}

const appSession = (log) => log.data?._analyticsSessionId ?? log.sessionId;
const isAppAnalytics = (log) => log.type.startsWith('app.analytics.') || log.type === 'app.view';
const isStudioPresence = (log) => log.type === 'studio.analytics.presence';

function analyticsHandler({ state, principal, params, query, body, method }) {
	const organization = requireOrganization(state, principal, params.id);
	const { start, end } = period(method, query, body);
	const to = end ?? state.now();
	const from = start ?? to - 30 * DAY;
	const previousFrom = from - (to - from);
	const orgLogs = state.logs.filter((log) => log.organizationId === organization.id);
	const current = orgLogs.filter((log) => inRange(log, from, to));
	const previous = orgLogs.filter((log) => inRange(log, previousFrom, from - 1));
	const stat = (pick) => ({ count: pick(current), previousPeriodCount: pick(previous) });
	const appLogs = (logs) => logs.filter(isAppAnalytics);
	const studioLogs = (logs) => logs.filter(isStudioPresence);
	const ofType = (type) => (logs) => logs.filter((log) => log.type === type).length;

	const apps = state.apps
		.filter((app) => app.organizationId === organization.id)
		.map((app) => {
			const ids = [app.id, app.productionAppId];
			const mine = (logs) => logs.filter((log) => ids.includes(log.appId));
			const appStat = (pick) => ({
				count: pick(mine(current)),
				previousPeriodCount: pick(mine(previous)),
			});
			const publishedAt = app.releases.at(-1)?.createdAt ?? null;
			return {
				id: app.id,
				name: app.name,
				createdAt: app.createdAt,
				updatedAt: app.updatedAt,
				publishedAt,
				publishedAppleAt: null,
				publishedGoogleAt: null,
				publishedWebAt: publishedAt,
				stats: {
					users: appStat((logs) => distinct(appLogs(logs), (log) => log.userId)),
					sessions: appStat((logs) => distinct(appLogs(logs), appSession)),
					events: appStat((logs) => appLogs(logs).length),
					devices: appStat((logs) => distinct(appLogs(logs), (log) => log.data?._deviceTrackingId)),
					updates: appStat(ofType('app.update')),
					publishes: appStat(ofType('app.publish')),
				},
			};
		});

	const users = state.users
		.filter((user) => user.organizationId === organization.id)
		.map((user) => {
			const theirs = current.filter((log) => log.userId === user.id);
			return {
				id: user.id,
				email: user.email,
				lastSeenAt:
					orgLogs
						.filter((log) => log.userId === user.id)
						.map((log) => log.createdAt)
						.sort()
						.at(-1) ?? null,
				createdAt: iso(Date.parse('2025-06-01T00:00:00.000Z')),
				stats: {
					studioSessions: { count: distinct(studioLogs(theirs), appSession) },
					viewerSessions: { count: distinct(appLogs(theirs), appSession) },
					appPublishes: { count: ofType('app.publish')(theirs) },
					appsAvailable: { count: apps.length },
					appsCreated: { count: ofType('app.create')(theirs) },
				},
			};
		});

	return {
		body: {
			appSessions: perDay(appLogs(current), appSession),
			studioSessions: perDay(studioLogs(current), appSession),
			stats: {
				uniqueAppUsers: stat((logs) => distinct(appLogs(logs), (log) => log.userId)),
				totalAppUsers: {
					count: distinct(
						appLogs(orgLogs.filter((log) => Date.parse(log.createdAt) <= to)),
						(log) => log.userId,
					),
					previousPeriodCount: distinct(
						appLogs(orgLogs.filter((log) => Date.parse(log.createdAt) < from)),
						(log) => log.userId,
					),
				},
				appSessions: stat((logs) => distinct(appLogs(logs), appSession)),
				studioSessions: stat((logs) => distinct(studioLogs(logs), appSession)),
				studioUsers: stat((logs) => distinct(studioLogs(logs), (log) => log.userId)),
				newStudioUsers: stat(() => 0),
				appsCreated: stat(ofType('app.create')),
				appsEdited: stat(ofType('app.settings.update')),
				appsPublished: stat(ofType('app.publish')),
			},
			apps,
			users,
		},
	};
}

/* ---- organization tokens ---- */

function tokenEntry(principal) {
	const at = principal.createdAt ?? iso(Date.parse('2026-01-05T09:00:00.000Z'));
	return {
		fullName: principal.name,
		firstName: principal.name,
		lastName: null,
		id: principal.id,
		email: `token-${principal.id}@tokens.example.com`,
		type: 'integrationToken',
		organizationUser: {
			createdAt: at,
			updatedAt: at,
			userId: principal.id,
			organizationId: principal.organizationId,
			organizationRoleId: 1,
		},
	};
}

const orgTokens = (state, organizationId) =>
	[...state.tokens.values()].filter(
		(t) => t.kind === 'organization' && t.organizationId === organizationId,
	);

const routes = [
	{
		// FACTS: the organizations of the token's user (each sandbox token belongs to one).
		method: 'GET',
		path: '/v1/organizations',
		handler: ({ state, principal }) => ({
			body: {
				organizations: state.organizations.filter((org) => org.id === principal.organizationId),
			},
		}),
	},
	{ method: 'GET', path: '/v1/organizations/:id/logs', area: 'logs', handler: logsHandler },
	{ method: 'POST', path: '/v1/organizations/:id/logs', area: 'logs', handler: logsHandler },
	{ method: 'GET', path: '/v1/organizations/:id/analytics', handler: analyticsHandler },
	{ method: 'POST', path: '/v1/organizations/:id/analytics', handler: analyticsHandler },
	{
		method: 'POST',
		path: '/v1/organizations/:id/tokens',
		handler: ({ state, principal, params, body }) => {
			const organization = requireOrganization(state, principal, params.id);
			const name = isObject(body) ? body.name : undefined;
			if (typeof name !== 'string' || !name.trim()) throw badRequest('"name" is required.');
			const id = state.nextId++;
			const token = `${state.region}--${randomBytes(16).toString('hex')}`;
			addToken(state, token, {
				kind: 'organization',
				organizationId: organization.id,
				userId: id,
				name,
			});
			state.tokens.get(token).createdAt = iso(state.now());
			return { status: 201, body: { token, id, name } };
		},
	},
	{
		method: 'GET',
		path: '/v1/organizations/:id/tokens',
		handler: ({ state, principal, params }) => {
			const organization = requireOrganization(state, principal, params.id);
			return { body: { organizationTokens: orgTokens(state, organization.id).map(tokenEntry) } };
		},
	},
	{
		method: 'DELETE',
		path: '/v1/organizations/:orgId/tokens/:tokenId',
		handler: ({ state, principal, params }) => {
			const organization = requireOrganization(state, principal, params.orgId);
			const found = orgTokens(state, organization.id).find((t) => String(t.id) === params.tokenId);
			if (!found)
				throw notFound(`The token ${params.tokenId} does not exist in this organization.`);
			state.tokens.delete(found.token);
			return { status: 200 };
		},
	},
];

module.exports = { routes };
