'use strict';

const { Query } = require('mingo');
const { HttpError, badRequest, isObject, notFound, truthy } = require('../http');
const { requireApp } = require('../access');
const { iso } = require('../state');

/**
 * App notifications. Not shown by the API and chosen here: create and update answer
 * `{notification}` (what the platform's editor reads), batch create `{notifications}`, delete and
 * mark-as-read `{success: true}`; count-only reads answer `{count}`; a numeric orderAt is epoch
 * milliseconds; a scheduled notification keeps status `scheduled` after its date; deleting marks
 * `deletedAt` (so includeDeleted can return it). Notifications belong to the app pair, so the
 * draft and published ids see the same ones.
 */

const STATUSES = ['draft', 'published', 'scheduled'];
const SORTABLE = ['orderAt', 'createdAt', 'updatedAt', 'id', 'status'];

/** @param {unknown} value @param {number} now */
function parseOrderAt(value, now) {
	if (value === undefined || value === null || value === '') return now;
	const at = typeof value === 'number' ? value : Date.parse(String(value));
	if (!Number.isFinite(at))
		throw badRequest('orderAt must be a date (epoch milliseconds or ISO 8601).');
	return at;
}

/** @param {unknown} scope */
function parseScope(scope) {
	if (scope === undefined || scope === null) return undefined;
	const list = Array.isArray(scope) ? scope : [scope];
	if (!list.every(isObject)) throw badRequest('scope must be an object or an array of objects.');
	return list;
}

/** @param {unknown} push */
function parsePush(push) {
	if (push === undefined || push === null) return undefined;
	if (!isObject(push)) throw badRequest('pushNotification must be an object.');
	if (push.payload !== undefined) {
		const { payload } = push;
		// SPEC: the payload "contains title and body strings".
		if (!isObject(payload) || typeof payload.title !== 'string' || typeof payload.body !== 'string')
			throw badRequest('pushNotification.payload must be an object with title and body strings.');
	}
	if (push.subscriptions !== undefined) {
		if (!Array.isArray(push.subscriptions) || !push.subscriptions.every(Number.isInteger)) {
			throw badRequest('pushNotification.subscriptions must be an array of subscription ids.');
		}
	}
	if (push.delayUntilTimestamp !== undefined && !Number.isInteger(push.delayUntilTimestamp)) {
		throw badRequest('pushNotification.delayUntilTimestamp must be a Unix timestamp in seconds.');
	}
	return push;
}

/** @param {string | undefined} status */
function parseStatus(status) {
	const value = status ?? 'draft';
	if (!STATUSES.includes(value)) throw badRequest(`status must be one of ${STATUSES.join(', ')}.`);
	return value;
}

/** @param {any} state @param {number} orderAt @param {string} status */
function checkSchedule(state, orderAt, status) {
	if (status === 'scheduled' && orderAt <= state.now()) {
		throw badRequest('A scheduled notification needs an orderAt date in the future.');
	}
}

function createNotification(state, appId, body, where) {
	if (!isObject(body) || !isObject(body.data))
		throw badRequest(`${where}: "data" (an object) is required.`);
	const now = state.now();
	const status = parseStatus(body.status);
	const orderAt = parseOrderAt(body.orderAt, now);
	checkSchedule(state, orderAt, status);
	const scope = parseScope(body.scope);
	const record = {
		id: state.nextId++,
		appId,
		data: body.data,
		// SPEC: scope is "array of objects, or absent"; absent means broadcast.
		...(scope ? { scope } : {}),
		status,
		orderAt: iso(orderAt),
		pushNotification: parsePush(body.pushNotification) ?? null,
		createdAt: iso(now),
		updatedAt: iso(now),
		deletedAt: null,
	};
	return record;
}

function findLive(state, appId, rawId) {
	const id = Number(rawId);
	const record = state.notifications.find((n) => n.appId === appId && n.id === id && !n.deletedAt);
	if (!record) throw notFound(`Notification ${rawId} not found.`);
	return record;
}

/** A notification is in a scope list when it is broadcast, or one of its scopes equals one asked for. */
function inScopes(record, scopes) {
	if (!record.scope || record.scope.length === 0) return true;
	const keys = scopes.map((scope) => JSON.stringify(scope));
	return record.scope.some((scope) => keys.includes(JSON.stringify(scope)));
}

function listNotifications({ state, principal, params, options, method }) {
	const { draft } = requireApp(state, principal, params.id);
	if (method === 'GET' && (options.where !== undefined || options.scope !== undefined)) {
		throw badRequest('where and scope are only supported with POST.');
	}
	let list = state.notifications.filter((n) => n.appId === draft.id);
	if (!truthy(options.includeDeleted)) list = list.filter((n) => !n.deletedAt);
	if (options.where !== undefined) {
		if (!isObject(options.where)) throw badRequest('where must be an object.');
		const query = new Query(options.where);
		list = list.filter((n) => query.test(n));
	}
	const scopes = parseScope(options.scope);
	if (scopes) list = list.filter((n) => inScopes(n, scopes));
	if (truthy(options.count)) return { body: { count: list.length } };

	const order = options.order ?? 'orderAt';
	if (!SORTABLE.includes(order)) throw badRequest(`order must be one of ${SORTABLE.join(', ')}.`);
	const direction = String(options.direction ?? 'DESC').toUpperCase();
	if (direction !== 'ASC' && direction !== 'DESC')
		throw badRequest('direction must be ASC or DESC.');
	const sign = direction === 'ASC' ? 1 : -1;
	list = [...list].sort((a, b) =>
		a[order] < b[order] ? -sign : a[order] > b[order] ? sign : (a.id - b.id) * sign,
	);
	const limit = options.limit === undefined ? 100 : Number(options.limit);
	if (!Number.isInteger(limit) || limit < 0) throw badRequest('limit must be a whole number.');
	return { body: { notifications: list.slice(0, limit) } };
}

const routes = [
	{
		method: 'GET',
		path: '/v1/apps/:id/notifications',
		handler: ({ state, principal, params, query }) =>
			listNotifications({ state, principal, params, options: query, method: 'GET' }),
	},
	{
		method: 'POST',
		path: '/v1/apps/:id/notifications',
		handler: ({ state, principal, params, body }) =>
			listNotifications({
				state,
				principal,
				params,
				options: isObject(body) ? body : {},
				method: 'POST',
			}),
	},
	{
		method: 'PUT',
		path: '/v1/apps/:id/notifications',
		handler: ({ state, principal, params, body }) => {
			const { draft } = requireApp(state, principal, params.id);
			const record = createNotification(state, draft.id, body, 'The notification');
			state.notifications.push(record);
			return { body: { notification: record } };
		},
	},
	{
		method: 'POST',
		path: '/v1/apps/:id/notifications/batch',
		handler: ({ state, principal, params, body }) => {
			const { draft } = requireApp(state, principal, params.id);
			const list = isObject(body) ? body.notifications : undefined;
			if (!Array.isArray(list) || list.length === 0)
				throw badRequest('"notifications" must be a non-empty array.');
			const records = list.map((item, i) =>
				createNotification(state, draft.id, item, `notifications[${i}]`),
			);
			state.notifications.push(...records);
			return { body: { notifications: records } };
		},
	},
	{
		method: 'POST',
		path: '/v1/apps/:id/notifications/mark-as-read',
		handler: ({ state, principal, params, body }) => {
			const { draft } = requireApp(state, principal, params.id);
			const recipientId = isObject(body) ? body.recipientId : undefined;
			const entries = isObject(body) ? body.entries : undefined;
			if (typeof recipientId !== 'string' || !recipientId)
				throw badRequest('recipientId (a string) is required.');
			if (!Array.isArray(entries) || entries.length === 0 || !entries.every(Number.isInteger)) {
				throw badRequest('entries must be a non-empty array of notification ids.');
			}
			const unknown = entries.filter(
				(id) => !state.notifications.some((n) => n.appId === draft.id && n.id === id),
			);
			if (unknown.length) throw notFound(`Notifications not found: ${unknown.join(', ')}.`);
			for (const notificationId of entries) {
				const seen = state.readReceipts.some(
					(r) => r.notificationId === notificationId && r.recipientId === recipientId,
				);
				if (!seen)
					state.readReceipts.push({ notificationId, recipientId, readAt: iso(state.now()) });
			}
			return { body: { success: true } };
		},
	},
	{
		method: 'PUT',
		path: '/v1/apps/:id/notifications/:notificationId',
		handler: ({ state, principal, params, body }) => {
			const { draft } = requireApp(state, principal, params.id);
			const record = findLive(state, draft.id, params.notificationId);
			const changes = isObject(body) ? body : {};
			if (changes.data !== undefined && !isObject(changes.data))
				throw badRequest('data must be an object.');
			const status = parseStatus(changes.status);
			const orderAt = parseOrderAt(changes.orderAt, state.now());
			checkSchedule(state, orderAt, status);
			if (changes.data !== undefined) {
				record.data =
					changes.extendData === true ? { ...record.data, ...changes.data } : changes.data;
			}
			if (changes.scope !== undefined) {
				const scope = parseScope(changes.scope);
				if (scope) record.scope = scope;
				else delete record.scope;
			}
			if (changes.pushNotification !== undefined)
				record.pushNotification = parsePush(changes.pushNotification) ?? null;
			record.status = status;
			record.orderAt = iso(orderAt);
			record.updatedAt = iso(state.now());
			return { body: { notification: record } };
		},
	},
	{
		method: 'DELETE',
		path: '/v1/apps/:id/notifications/:notificationId',
		handler: ({ state, principal, params }) => {
			const { draft } = requireApp(state, principal, params.id);
			const record = findLive(state, draft.id, params.notificationId);
			record.deletedAt = iso(state.now());
			return { body: { success: true } };
		},
	},
	{
		method: 'GET',
		path: '/v1/apps/:id/subscriptions',
		handler: ({ state, principal, params }) => {
			const { draft, publishedId } = requireApp(state, principal, params.id);
			if (principal.kind !== 'user') {
				throw new HttpError(
					403,
					'Push subscriptions can only be listed by Studio users; API tokens are not allowed.',
				);
			}
			return {
				body: {
					subscriptions: state.subscriptions.filter(
						(s) => s.appId === draft.id || s.appId === publishedId,
					),
				},
			};
		},
	},
];

module.exports = { routes };
