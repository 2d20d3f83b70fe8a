'use strict';

const { HttpError, badRequest, isObject } = require('../http');
const { requireApp, canReachApp } = require('../access');
const { iso } = require('../state');

const RELEASE_TYPES = ['silent', 'visible', 'forced'];

/**
 * Publishes an in-app update. As the source-checked docs say (`Fliplet/fliplet-cli`, commit
 * 8990dd3c): 201, with `version` as a string. SPEC gives 200 and an integer version.
 */
function publish({ state, principal, params, body }) {
	const { draft } = requireApp(state, principal, params.id);
	const release = isObject(body) ? body.release : undefined;
	if (!isObject(release)) throw badRequest('The "release" attribute is required for publishing.');
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
	return {
		status: 201,
		body: { app: { version: String(draft.version), id: draft.id, updatedAt: draft.updatedAt } },
	};
}

/** The publish route answers its errors as `{error}`, not `{message}`. */
function errorsAsError(run) {
	try {
		return run();
	} catch (error) {
		if (!(error instanceof HttpError)) throw error;
		const failure = new HttpError(error.status, error.message);
		failure.body = { error: error.message };
		throw failure;
	}
}

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
		handler: (ctx) => errorsAsError(() => publish(ctx)),
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
