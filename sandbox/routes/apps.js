'use strict';

const { badRequest, isObject } = require('../http');
const { requireApp, canReachApp } = require('../access');
const { iso } = require('../state');

const RELEASE_TYPES = ['silent', 'visible', 'forced'];

const routes = [
	{
		method: 'GET',
		path: '/v1/apps',
		handler: ({ state, principal }) => ({
			body: {
				apps: state.apps.filter(
					(app) =>
						canReachApp(state, principal, app.id) ||
						canReachApp(state, principal, app.productionAppId),
				),
			},
		}),
	},
	{
		method: 'POST',
		path: '/v1/apps/:id/publish',
		handler: ({ state, principal, params, body }) => {
			const { draft } = requireApp(state, principal, params.id);
			const release = isObject(body) ? body.release : undefined;
			if (!isObject(release))
				throw badRequest('The "release" attribute is required for publishing.');
			if (!RELEASE_TYPES.includes(release.type)) {
				throw badRequest(`Release type must be one of ${RELEASE_TYPES.join(', ')}.`);
			}
			draft.version = (draft.version ?? 0) + 1;
			draft.updatedAt = iso(state.now());
			draft.releases.push({
				version: draft.version,
				type: release.type,
				changelog: release.changelog ?? '',
				createdAt: draft.updatedAt,
			});
			// The contract says 200; a public page shows 201. Clients accept any 2xx.
			return {
				status: 200,
				body: { app: { version: draft.version, id: draft.id, updatedAt: draft.updatedAt } },
			};
		},
	},
	{
		method: 'GET',
		path: '/v1/apps/:id/analytics/sessions',
		handler: ({ state, principal, params }) => {
			const { publishedId } = requireApp(state, principal, params.id);
			return { body: { sessions: state.analyticsSessions.get(publishedId) ?? [] } };
		},
	},
];

module.exports = { routes };
