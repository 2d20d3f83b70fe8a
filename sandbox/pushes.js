'use strict';

const { Query } = require('mingo');
const { findAppPair } = require('./access');
const { iso } = require('./state');

/**
 * Push notifications the sandbox "sends": each is recorded in `state.pushes` with the devices
 * (push subscriptions) it would reach, so tests and the control API see what a real send does.
 *
 * As the platform's own code shows, a notification's `pushNotification` payload is pushed
 * whatever the notification's status (its editors leave the payload out of drafts for that
 * reason: "Do not assign push notification payload when saving a draft. The backend will send a
 * push notification to users.", `Fliplet/fliplet-widget-push-notifications:
 * src/components/NotificationForm.vue`). Data-source hooks of type `push` send one too.
 *
 * Devices: the app's subscriptions (draft or published id); only the listed ones when
 * `subscriptions` names them; else, when the notification has a scope, those whose user record
 * matches one of its scopes (a notification for everyone reaches every subscription).
 */

/** @param {any} user @param {object[]} scopes */
function matchesAScope(user, scopes) {
	return scopes.some((scope) => {
		try {
			return new Query(scope).test(user);
		} catch {
			return false;
		}
	});
}

/**
 * The subscriptions a push of `appId` reaches.
 * @param {any} state
 * @param {number} appId
 * @param {{ subscriptionIds?: number[], scope?: object[] }} target
 */
function devicesFor(state, appId, { subscriptionIds, scope }) {
	const pair = findAppPair(state, appId);
	if (!pair) return [];
	let devices = state.subscriptions.filter(
		(s) => s.appId === pair.draft.id || s.appId === pair.publishedId,
	);
	if (Array.isArray(subscriptionIds)) {
		devices = devices.filter((s) => subscriptionIds.includes(s.id));
	} else if (Array.isArray(scope) && scope.length) {
		devices = devices.filter((s) => {
			const user = state.users.find((u) => u.id === s.userId);
			return user !== undefined && matchesAScope(user, scope);
		});
	}
	return devices.map(({ id, userId, platform, token }) => ({
		subscriptionId: id,
		userId,
		platform,
		token,
	}));
}

/**
 * Records one push as sent and returns the record.
 * @param {any} state
 * @param {{ appId: number, payload: object, subscriptionIds?: number[], scope?: object[],
 *   sendAt?: number, source: object }} push `source` says what sent it, e.g.
 *   `{notificationId, status}` or `{dataSourceId, entryId, event}`
 */
function sendPush(state, { appId, payload, subscriptionIds, scope, sendAt, source }) {
	if (!state.pushes) state.pushes = [];
	const now = state.now();
	const record = {
		appId,
		...source,
		payload,
		devices: devicesFor(state, appId, { subscriptionIds, scope }),
		at: iso(now),
		sendAt: iso(Math.max(now, sendAt ?? now)),
	};
	state.pushes.push(record);
	return record;
}

module.exports = { sendPush, devicesFor };
