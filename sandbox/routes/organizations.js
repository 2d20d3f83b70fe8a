'use strict';

const { randomBytes } = require('node:crypto');
const { badRequest, isObject, notFound } = require('../http');
const { requireOrganization } = require('../access');
const { addToken, iso } = require('../state');
const { ANALYTICS_TYPES } = require('../seeds/organizations');

const SORTS = ['id', 'createdAt', 'type'];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
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
	return {
		types: listParam(input.type, 'type'),
		appId,
		fields: listParam(input.fields, 'fields'),
		startDate: dateParam(input.startDate, 'startDate'),
		endDate: dateParam(input.endDate, 'endDate'),
		sort,
		order,
		limit: Math.min(integerParam(input.limit, 'limit', DEFAULT_LIMIT) || DEFAULT_LIMIT, MAX_LIMIT),
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

function selectLogs(state, organizationId, params) {
	const { types, appId, startDate, endDate, sort, order } = params;
	const matching = state.logs.filter((log) => {
		if (log.organizationId !== organizationId) return false;
		if (types ? !types.includes(log.type) : ANALYTICS_TYPES.includes(log.type)) return false;
		if (appId !== undefined && log.appId !== appId) return false;
		const at = Date.parse(log.createdAt);
		if (startDate !== undefined && at < startDate) return false;
		if (endDate !== undefined && at > endDate) return false;
		return true;
	});
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

function project(log, fields) {
	if (!fields) return log;
	return Object.fromEntries(
		fields.filter((field) => field in log).map((field) => [field, log[field]]),
	);
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
		lines.push(columns.map((column) => csvCell(record[column])).join(','));
	return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

function logsHandler({ state, principal, params, query, body, method }) {
	const organization = requireOrganization(state, principal, params.id);
	const input = logParams(method, query, body);
	const page = selectLogs(state, organization.id, input)
		.slice(input.offset, input.offset + input.limit)
		.map((log) => project(log, input.fields));
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
