'use strict';

const { readingsOf, setReadings } = require('./dataSources/readings');

/**
 * Control endpoints under /__sandbox/ for callers in another process (the end-to-end tier, the
 * demo): they read what the sandbox received and flip its switches. They need no token.
 */
const controlRoutes = [
	{
		method: 'GET',
		path: '/__sandbox/requests',
		handler: ({ sandbox, query }) => ({
			body: { requests: sandbox.requests.slice(Number(query.since ?? 0)) },
		}),
	},
	{
		method: 'POST',
		path: '/__sandbox/reset',
		handler: ({ sandbox }) => {
			sandbox.reset();
			return { body: { reset: true } };
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/faults',
		handler: ({ sandbox, body }) => {
			sandbox.injectFault(body);
			return { body: { faults: sandbox.faults } };
		},
	},
	{
		// Lands the writes `land-late` faults hold (see sandbox/server.js), oldest first.
		method: 'POST',
		path: '/__sandbox/held/land',
		handler: async ({ sandbox }) => ({ body: { landed: await sandbox.landHeld() } }),
	},
	{
		method: 'POST',
		path: '/__sandbox/rate-limits',
		handler: ({ sandbox, body }) => {
			// enabled, limits ({area: {limit, windowMs}}), dailyCaps ({ai, aiPaid}) and aiScope
			// ('app' or 'organization': whose per-minute AI limit; a reset brings 'app' back).
			const limiter = sandbox.rateLimiter;
			if (typeof body?.enabled === 'boolean') limiter.enabled = body.enabled;
			if (body?.limits) Object.assign(limiter.limits, body.limits);
			if (body?.dailyCaps) Object.assign(limiter.dailyCaps, body.dailyCaps);
			if (body?.aiScope !== undefined) {
				if (!['app', 'organization'].includes(body.aiScope)) {
					return { status: 400, body: { message: 'aiScope is "app" or "organization"' } };
				}
				sandbox.state.aiLimitScope = body.aiScope;
			}
			return {
				body: {
					enabled: limiter.enabled,
					limits: limiter.limits,
					dailyCaps: limiter.dailyCaps,
					aiScope: sandbox.state.aiLimitScope ?? 'app',
				},
			};
		},
	},
	{
		// The disputed readings (sandbox/dataSources/readings.js): GET reads them, POST changes some.
		method: 'GET',
		path: '/__sandbox/readings',
		handler: ({ sandbox }) => ({ body: { readings: readingsOf(sandbox.state) } }),
	},
	{
		method: 'POST',
		path: '/__sandbox/readings',
		handler: ({ sandbox, body }) => {
			try {
				return { body: { readings: setReadings(sandbox.state, body) } };
			} catch (error) {
				return { status: error.status ?? 500, body: error.body ?? { message: error.message } };
			}
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/plans',
		handler: ({ sandbox, body }) => {
			// An organization's plan sets its AI rate limit: { organizationId, plan: 'free' | 'paid' }.
			const organizationId = Number(body?.organizationId);
			if (!Number.isInteger(organizationId) || !['free', 'paid'].includes(body?.plan)) {
				return {
					status: 400,
					body: { message: 'Give organizationId and plan ("free" or "paid")' },
				};
			}
			sandbox.state.plans.set(organizationId, body.plan);
			return { body: { organizationId, plan: body.plan } };
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/encrypted-files',
		handler: ({ sandbox, body }) => {
			// An organization that stores uploaded files encrypted: { organizationId, encrypted }.
			const organizationId = Number(body?.organizationId);
			if (!Number.isInteger(organizationId) || typeof body?.encrypted !== 'boolean') {
				return {
					status: 400,
					body: { message: 'Give organizationId and encrypted (true or false)' },
				};
			}
			const encrypted = sandbox.state.encryptedFileOrganizations;
			if (body.encrypted) encrypted.add(organizationId);
			else encrypted.delete(organizationId);
			return { body: { organizationId, encrypted: body.encrypted } };
		},
	},
	{
		method: 'GET',
		path: '/__sandbox/state',
		handler: ({ sandbox }) => {
			const { state } = sandbox;
			return {
				body: {
					dataSources: state.dataSources,
					entries: state.entries,
					notifications: state.notifications,
					pushes: state.pushes,
					hookLog: state.hookLog,
					hookCalls: state.hookCalls ?? [],
					sent: state.sent,
					ai: state.ai,
					media: [...state.media.values()],
					mediaFolders: [...(state.mediaFolders?.values() ?? [])],
					tokens: [...state.tokens.values()].map(({ token, ...rest }) => ({
						...rest,
						tokenPrefix: token.slice(0, 4),
					})),
				},
			};
		},
	},
];

module.exports = { controlRoutes };
