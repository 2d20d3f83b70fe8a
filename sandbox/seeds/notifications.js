'use strict';

const { iso } = require('../state');

const AT = Date.parse('2026-01-10T08:00:00.000Z');

/** Three notifications of the Staff Directory app (one deleted) and its two push subscriptions. */
function seedNotifications(state) {
	const base = { appId: 10, type: 'in-app', pushNotification: null, deletedAt: null };
	state.notifications.push(
		{
			...base,
			id: 501,
			data: { title: 'Welcome', message: 'Hello all' },
			status: 'published',
			orderAt: iso(AT),
			createdAt: iso(AT),
			updatedAt: iso(AT),
		},
		{
			...base,
			id: 502,
			data: { title: 'Sales call', message: 'Team only' },
			scope: [{ department: 'Sales' }],
			status: 'draft',
			orderAt: iso(AT + 3600_000),
			createdAt: iso(AT),
			updatedAt: iso(AT),
		},
		{
			...base,
			id: 503,
			data: { title: 'Old news' },
			status: 'published',
			orderAt: iso(AT - 3600_000),
			createdAt: iso(AT),
			updatedAt: iso(AT),
			deletedAt: iso(AT),
		},
	);
	state.subscriptions.push(
		{
			id: 71,
			appId: 11,
			userId: 1,
			uuid: 'a1b2c3d4-0000-4000-8000-000000000071',
			token: 'device-token-71',
			platform: 'ios',
			device: 'iPhone',
			ipAddress: '203.0.113.71',
			createdAt: iso(AT),
			updatedAt: iso(AT),
		},
		{
			id: 72,
			appId: 11,
			userId: 2,
			uuid: 'a1b2c3d4-0000-4000-8000-000000000072',
			token: 'device-token-72',
			platform: 'android',
			device: 'Pixel',
			ipAddress: '203.0.113.72',
			createdAt: iso(AT),
			updatedAt: iso(AT),
		},
	);
}

module.exports = { seedNotifications };
