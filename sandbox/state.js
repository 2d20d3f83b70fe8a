'use strict';

/**
 * The sandbox's whole world, in memory. Each API area keeps its records here so that a reset
 * (or a new sandbox) starts from the same fixture.
 *
 * Fixture: organization 1 "Acme Sandbox" with app "Staff Directory" (draft 10, published 11) and
 * "Field Reports" (draft 20, published 21); organization 2 "Other Org" with app 30/31, which no
 * sandbox token but its own can reach.
 */

const TOKENS = {
	org: 'eu--sandbox-org-token',
	app: 'eu--sandbox-app-token',
	otherApp: 'eu--sandbox-field-reports-token',
	studio: 'eu--sandbox-studio-user-token',
	us: 'us--sandbox-us-token',
	otherOrg: 'eu--sandbox-other-org-token',
};

const FIXED_EPOCH = Date.parse('2026-01-05T09:00:00.000Z');

function iso(ms) {
	return new Date(ms).toISOString();
}

function createState(options = {}) {
	const region = options.region ?? 'eu';
	const created = iso(FIXED_EPOCH);
	const state = {
		region,
		/** Overridable clock, so tests can make events share a timestamp. */
		now: () => Date.now(),
		nextId: 1000,
		organizations: [
			{ id: 1, name: 'Acme Sandbox', region },
			{ id: 2, name: 'Other Org', region },
		],
		users: [
			{
				id: 1,
				firstName: 'Sandy',
				lastName: 'Box',
				fullName: 'Sandy Box',
				email: 'sandy@example.com',
				organizationId: 1,
			},
			{
				id: 2,
				firstName: 'Otto',
				lastName: 'Other',
				fullName: 'Otto Other',
				email: 'otto@example.org',
				organizationId: 2,
			},
		],
		apps: [
			appRecord(10, 'Staff Directory', 1, 11, created),
			appRecord(20, 'Field Reports', 1, 21, created),
			appRecord(30, 'Other Org App', 2, 31, created),
		],
		/** token string -> principal */
		tokens: new Map(),
		analyticsSessions: new Map(),
		dataSources: [],
		entries: [],
		versions: [],
		media: new Map(),
		notifications: [],
		readReceipts: [],
		subscriptions: [],
		/** Push notifications sent, with the devices each reached (see pushes.js). */
		pushes: [],
		/** Every data-source hook that ran (see dataSources/hooks.js). */
		hookLog: [],
		sent: { emails: [], sms: [] },
		logs: [],
		ai: { calls: [] },
		/** organization id -> its plan ('free' when absent, or 'paid'): the AI rate limit follows it. */
		plans: new Map(),
	};
	addToken(state, TOKENS.org, {
		kind: 'organization',
		organizationId: 1,
		userId: 101,
		name: 'Sandbox org token',
	});
	addToken(state, TOKENS.app, {
		kind: 'app',
		organizationId: 1,
		appId: 11,
		userId: 102,
		name: 'Staff Directory API',
	});
	addToken(state, TOKENS.otherApp, {
		kind: 'app',
		organizationId: 1,
		appId: 21,
		userId: 103,
		name: 'Field Reports API',
	});
	addToken(state, TOKENS.studio, { kind: 'user', organizationId: 1, userId: 1, name: 'Sandy Box' });
	addToken(state, TOKENS.us, {
		kind: 'organization',
		organizationId: 1,
		userId: 104,
		name: 'US token',
	});
	addToken(state, TOKENS.otherOrg, {
		kind: 'organization',
		organizationId: 2,
		userId: 105,
		name: 'Other org token',
	});
	state.analyticsSessions.set(11, sessionFixtures(created));
	return state;
}

function appRecord(id, name, organizationId, productionAppId, at) {
	return {
		id,
		name,
		icon: `https://cdn.example.com/icons/${id}.png`,
		version: 1,
		settings: {},
		releases: [],
		dependencies: [],
		slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
		createdAt: at,
		updatedAt: at,
		deletedAt: null,
		organizationId,
		startingPageId: id * 100,
		productionAppId,
		appUser: { appRoleId: 1, appId: id, userId: 1 },
	};
}

function sessionFixtures(at) {
	return [1, 2, 3].map((n) => ({
		id: n,
		identifier: {
			os: { major: String(14 + n), family: n % 2 ? 'iOS' : 'Android' },
			device: { family: n % 2 ? 'iPhone' : 'Pixel' },
			browser: { major: '120', minor: '0', family: 'Chrome Mobile' },
			ipAddress: `203.0.113.${n}`,
			userAgent: 'Mozilla/5.0 (sandbox)',
		},
		lastAccessedAt: at,
		user: { email: `user${n}@example.com` },
		appVersion: {
			isManualCheck: false,
			lastCheckedAt: at,
			latestVersion: 3,
			nrOfDownloads: n,
			currentVersion: 3,
			lastUpdateType: 'silent',
			localUpdatedAt: at,
			assetsToDownload: 0,
		},
	}));
}

/**
 * @param {ReturnType<typeof createState>} state
 * @param {string} token
 * @param {{kind: 'organization'|'app'|'user', organizationId: number, appId?: number, userId: number, name: string}} principal
 */
function addToken(state, token, principal) {
	state.tokens.set(token, { token, id: principal.userId, ...principal });
}

/** The region a token belongs to, from its prefix (EU when it has none). */
function tokenRegion(token) {
	const prefix = token.slice(0, 4).toLowerCase();
	return prefix === 'us--' ? 'us' : prefix === 'ca--' ? 'ca' : 'eu';
}

module.exports = { createState, addToken, tokenRegion, TOKENS, iso };
