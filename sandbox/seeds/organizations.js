'use strict';

/**
 * Audit log records of organization 1 (apps 10/11 and 20/21) and organization 2 (app 30/31): a
 * mix of ordinary activity and the five analytics types the logs endpoint hides by default.
 */

const ANALYTICS_TYPES = [
	'app.analytics.pageView',
	'app.analytics.event',
	'app.view',
	'app.update',
	'studio.analytics.presence',
];

const SEED_START = Date.parse('2026-01-01T08:00:00.000Z');
const HOUR = 3_600_000;

/** The highest log id handed out per state, so appending thousands of records stays cheap. */
const lastLogIds = new WeakMap();

function nextLogId(state) {
	const last = lastLogIds.get(state) ?? state.logs.reduce((max, log) => Math.max(max, log.id), 0);
	lastLogIds.set(state, last + 1);
	return last + 1;
}

/** The audit log record shape of the API, every id field present (null when unused). */
function logRecord(state, fields) {
	const createdAt = fields.createdAt ?? new Date(state.now()).toISOString();
	const id = fields.id ?? nextLogId(state);
	return {
		id,
		type: fields.type ?? 'app.custom',
		data: fields.data ?? {},
		requestId: fields.requestId ?? `req-${id}`,
		createdAt,
		updatedAt: fields.updatedAt ?? createdAt,
		sessionId: fields.sessionId ?? null,
		userId: fields.userId ?? null,
		appId: fields.appId ?? null,
		dataSourceEntryId: fields.dataSourceEntryId ?? null,
		dataSourceId: fields.dataSourceId ?? null,
		organizationId: fields.organizationId ?? 1,
		appNotificationId: fields.appNotificationId ?? null,
	};
}

/**
 * Appends one audit log record (tests use it to make events appear between polls). `createdAt`
 * defaults to the sandbox clock; the id is the next free one.
 * @param {any} state
 * @param {Record<string, any>} fields
 */
function addLog(state, fields = {}) {
	const record = logRecord(state, fields);
	if (lastLogIds.has(state)) lastLogIds.set(state, Math.max(lastLogIds.get(state), record.id));
	state.logs.push(record);
	return record;
}

const ACTIVITY = [
	{ type: 'app.create', appId: 10, userId: 1 },
	{ type: 'app.publish', appId: 11, userId: 1 },
	{
		type: 'dataSource.entry.create',
		appId: 11,
		userId: 1,
		dataSourceId: 500,
		dataSourceEntryId: 9001,
	},
	{ type: 'user.login', userId: 1 },
	{ type: 'app.settings.update', appId: 20, userId: 1 },
	{ type: 'app.publish', appId: 21, userId: 1 },
];

function analyticsData(n, appId) {
	return {
		_os: n % 2 ? 'iOS' : 'Android',
		_pageId: appId * 100 + (n % 3),
		_platform: n % 2 ? 'native' : 'web',
		_pageTitle: ['Home', 'Directory', 'Profile'][n % 3],
		_userEmail: `user${(n % 4) + 1}@example.com`,
		_deviceTrackingId: `device-${n % 5}`,
		_analyticsSessionId: `session-${appId}-${Math.floor(n / 2)}`,
	};
}

function seedOrganizations(state) {
	let at = SEED_START;
	for (let n = 0; n < 36; n++) {
		at += 2 * HOUR;
		const createdAt = new Date(at).toISOString();
		if (n % 3 === 2) {
			const appId = n % 2 ? 21 : 11;
			const type = ANALYTICS_TYPES[n % ANALYTICS_TYPES.length];
			const studio = type === 'studio.analytics.presence';
			addLog(state, {
				type,
				createdAt,
				appId: studio ? null : appId,
				userId: (n % 4) + 1,
				sessionId: 700 + Math.floor(n / 2),
				data: studio ? { _analyticsSessionId: `studio-${n % 4}` } : analyticsData(n, appId),
			});
		} else {
			addLog(state, { ...ACTIVITY[n % ACTIVITY.length], createdAt, data: { seq: n } });
		}
	}
	addLog(state, {
		type: 'app.publish',
		appId: 31,
		userId: 2,
		organizationId: 2,
		createdAt: new Date(at + HOUR).toISOString(),
	});
	addLog(state, {
		type: 'app.analytics.pageView',
		appId: 31,
		userId: 2,
		organizationId: 2,
		createdAt: new Date(at + HOUR).toISOString(),
		data: analyticsData(1, 31),
	});
}

module.exports = { seedOrganizations, addLog, ANALYTICS_TYPES };
