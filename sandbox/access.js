'use strict';

const { notFound } = require('./http');

/**
 * The app pair (draft and published ids) an id belongs to, or undefined.
 * @param {any} state
 * @param {number} id
 */
function findAppPair(state, id) {
	const draft = state.apps.find((app) => app.id === id || app.productionAppId === id);
	if (!draft) return undefined;
	return { draft, publishedId: draft.productionAppId, isDraftId: draft.id === id };
}

/**
 * Whether a principal reaches an app id. App API tokens reach only their own published app (the
 * draft answers 404, as the platform does); organization and Studio user tokens reach both ids of
 * the apps of their organization.
 * @param {any} state
 * @param {any} principal
 * @param {number} appId
 */
function canReachApp(state, principal, appId) {
	const pair = findAppPair(state, appId);
	if (!pair || !principal) return false;
	if (principal.kind === 'app') return principal.appId === appId;
	return pair.draft.organizationId === principal.organizationId;
}

/** Throws the platform's 404 unless the principal reaches the app. */
function requireApp(state, principal, rawId) {
	const appId = Number(rawId);
	if (!Number.isInteger(appId) || !canReachApp(state, principal, appId)) {
		throw notFound(
			`The app ${rawId} is not available to this token (it does not exist, is not accessible, or is a draft: use the published app's id).`,
		);
	}
	return findAppPair(state, appId);
}

/** Throws 404 unless the principal belongs to the organization (app tokens: their app's org). */
function requireOrganization(state, principal, rawId) {
	const organizationId = Number(rawId);
	const organization = state.organizations.find((org) => org.id === organizationId);
	if (!organization || principal.organizationId !== organizationId || principal.kind === 'app') {
		throw notFound(`The organization ${rawId} is not available to this token.`);
	}
	return organization;
}

module.exports = { findAppPair, canReachApp, requireApp, requireOrganization };
