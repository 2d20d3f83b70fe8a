'use strict';

const { Query } = require('mingo');
const { HttpError, badRequest, isObject, notFound, truthy } = require('../http');
const { requireApp } = require('../access');
const { iso } = require('../state');
const { sendPush } = require('../pushes');
const { readingsOf } = require('../dataSources/readings');

/**
 * App notifications. Not shown by the API and chosen here: create and update answer
 * `{notification}` (what the platform's editor reads), batch create `{notifications}`, delete and
 * mark-as-read `{success: true}`; count-only reads answer `{count}`; a scheduled notification
 * keeps status `scheduled` after its date; deleting marks `deletedAt` (so includeDeleted can
 * return it). Notifications belong to the app pair, so the draft and published ids see the same
 * ones.
 *
 * As the platform's own code shows: a numeric orderAt is Unix seconds (its editor sends
 * `moment().unix()`); a list returns published notifications of the caller's scope unless
 * `status` (one or several), `includeDrafts` or `includeAllScopes` widen it; an empty scope list
 * is refused (the editor leaves `scope` out for everyone); `type` is `in-app` or `push`.
 *
 * Side effect: a create or update that carries a `pushNotification` payload pushes it at once,
 * whatever the status (a scheduled one at its date, or at `delayUntilTimestamp`), recorded in
 * `state.pushes` with the devices it reaches (see pushes.js). The push payload's `sound` and
 * `icon` are strings (the editors send `sound: 'default'`, `icon: 'icon_notification'`).
 *
 * The push editor sends `isPushNotificationWidget: true` on create and update (and on its
 * audience count); no public source says what the server does with it: accepted, not stored.
 * An update that leaves `status` or `orderAt` out gets SPEC's defaults (draft, now) or keeps the
 * stored ones, by the readings `updateStatus` and `updateOrderAt` (readings.js).
 */

const STATUSES = ['draft', 'published', 'scheduled'];
const TYPES = ['in-app', 'push'];
const PRIORITIES = ['high', 'normal'];
const SORTABLE = ['orderAt', 'createdAt', 'updatedAt', 'id', 'status'];

/**
 * orderAt in epoch milliseconds, kept in whole seconds as the platform keeps it (the REST docs'
 * answers carry an orderAt of `…:38.000Z` beside a createdAt of `…:38.260Z`).
 * @param {unknown} value @param {number} now
 */
function parseOrderAt(value, now) {
	if (value === undefined || value === null || value === '') return wholeSeconds(now);
	const at = typeof value === 'number' ? value * 1000 : Date.parse(String(value));
	if (!Number.isFinite(at)) throw badRequest('orderAt must be a date (Unix seconds or ISO 8601).');
	return wholeSeconds(at);
}

/** @param {number} ms */
const wholeSeconds = (ms) => Math.floor(ms / 1000) * 1000;

/** @param {unknown} scope */
function parseScope(scope) {
	if (scope === undefined || scope === null) return undefined;
	const list = Array.isArray(scope) ? scope : [scope];
	if (!list.length)
		throw badRequest('scope must not be empty: leave it out to reach every user of the app.');
	if (!list.every(isObject)) throw badRequest('scope must be an object or an array of objects.');
	return list;
}

/** @param {unknown} type */
function parseType(type) {
	if (type === undefined || type === null) return undefined;
	if (!TYPES.includes(type)) throw badRequest(`type must be one of ${TYPES.join(', ')}.`);
	return type;
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
		if (payload.priority !== undefined && !PRIORITIES.includes(payload.priority))
			throw badRequest(
				`pushNotification.payload.priority must be one of ${PRIORITIES.join(', ')}.`,
			);
		for (const key of ['sound', 'icon']) {
			if (payload[key] !== undefined && typeof payload[key] !== 'string')
				throw badRequest(`pushNotification.payload.${key} must be a string.`);
		}
		if (payload.custom !== undefined) {
			if (!isObject(payload.custom))
				throw badRequest('pushNotification.payload.custom must be an object.');
			const link = payload.custom.customData;
			if (link !== undefined && (!isObject(link) || typeof link.action !== 'string'))
				throw badRequest(
					'pushNotification.payload.custom.customData must be a link object with an action, e.g. {action: "screen", page, query}.',
				);
		}
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
	const type = parseType(body.type) ?? 'in-app';
	const pushNotification = parsePush(body.pushNotification) ?? null;
	if (type === 'push' && !pushNotification?.payload)
		throw badRequest(
			`${where}: a push-only notification (type "push") needs pushNotification.payload.`,
		);
	const record = {
		id: state.nextId++,
		appId,
		type,
		data: body.data,
		// SPEC: scope is "array of objects, or absent"; absent means broadcast.
		...(scope ? { scope } : {}),
		status,
		orderAt: iso(orderAt),
		pushNotification,
		createdAt: iso(now),
		updatedAt: iso(now),
		deletedAt: null,
	};
	return record;
}

/** Pushes a stored notification's payload, when it has one: whatever its status. */
function pushIfCarried(state, record) {
	const push = record.pushNotification;
	if (!push?.payload) return;
	const delayed = push.delayUntilTimestamp === undefined ? 0 : push.delayUntilTimestamp * 1000;
	const scheduled = record.status === 'scheduled' ? Date.parse(record.orderAt) : 0;
	sendPush(state, {
		appId: record.appId,
		payload: push.payload,
		subscriptionIds: push.subscriptions,
		scope: record.scope,
		sendAt: Math.max(delayed, scheduled),
		source: { notificationId: record.id, status: record.status, type: record.type },
	});
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

/**
 * In the caller's own scope: broadcast, or a scope the caller's user record matches (a token
 * that is no app user reaches only the broadcast ones).
 */
function inCallerScope(state, principal, record) {
	if (!record.scope || record.scope.length === 0) return true;
	const user = state.users.find((u) => u.id === principal.userId);
	if (!user) return false;
	return record.scope.some((scope) => new Query(scope).test(user));
}

/** The statuses a list returns: published unless `status` and `includeDrafts` say otherwise. */
function listedStatuses(options) {
	const raw = options.status;
	let asked;
	if (raw === undefined || raw === null || raw === '') asked = ['published'];
	else if (Array.isArray(raw)) asked = raw;
	else if (typeof raw === 'string') asked = raw.split(',').map((part) => part.trim());
	else throw badRequest('status must be a status or an array of statuses.');
	for (const status of asked) {
		if (!STATUSES.includes(status))
			throw badRequest(`status must list values of ${STATUSES.join(', ')}.`);
	}
	const statuses = new Set(asked);
	if (truthy(options.includeDrafts)) statuses.add('draft');
	return statuses;
}

function listNotifications({ state, principal, params, options, method }) {
	const { draft } = requireApp(state, principal, params.id);
	if (method === 'GET' && (options.where !== undefined || options.scope !== undefined)) {
		throw badRequest('where and scope are only supported with POST.');
	}
	const statuses = listedStatuses(options);
	let list = state.notifications.filter((n) => n.appId === draft.id && statuses.has(n.status));
	if (!truthy(options.includeDeleted)) list = list.filter((n) => !n.deletedAt);
	if (options.where !== undefined) {
		if (!isObject(options.where)) throw badRequest('where must be an object.');
		const query = new Query(options.where);
		list = list.filter((n) => query.test(n));
	}
	const scopes = parseScope(options.scope);
	if (scopes) list = list.filter((n) => inScopes(n, scopes));
	else if (!truthy(options.includeAllScopes))
		list = list.filter((n) => inCallerScope(state, principal, n));
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
			pushIfCarried(state, record);
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
			for (const record of records) pushIfCarried(state, record);
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
			// What an update leaves out: SPEC's defaults (draft, now), or kept (readings.js).
			const readings = readingsOf(state);
			const status =
				changes.status === undefined && readings.updateStatus === 'kept'
					? record.status
					: parseStatus(changes.status);
			const orderAt =
				changes.orderAt === undefined && readings.updateOrderAt === 'kept'
					? Date.parse(record.orderAt)
					: parseOrderAt(changes.orderAt, state.now());
			checkSchedule(state, orderAt, status);
			const type = parseType(changes.type);
			const scope = parseScope(changes.scope);
			const push =
				changes.pushNotification === undefined ? undefined : parsePush(changes.pushNotification);
			if (changes.data !== undefined) {
				record.data =
					changes.extendData === true ? { ...record.data, ...changes.data } : changes.data;
			}
			if (changes.scope !== undefined) {
				if (scope) record.scope = scope;
				else delete record.scope;
			}
			if (changes.pushNotification !== undefined) record.pushNotification = push ?? null;
			if (type) record.type = type;
			record.status = status;
			record.orderAt = iso(orderAt);
			record.updatedAt = iso(state.now());
			if (push) pushIfCarried(state, record);
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
