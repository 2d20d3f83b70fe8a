'use strict';

const { HttpError, badRequest, notFound } = require('../http');
const { rulesAllow } = require('./accessRules');

const VERBS = { read: 'read', write: 'insert', update: 'update', delete: 'delete' };

const unauthorised = () =>
	new HttpError(401, "The auth_token provided doesn't belong to any user.", {
		error: 'not authorised',
	});

/** Security rules per token: data source id -> { token -> permissions }. Not part of the record. */
function rulesOf(state, dataSourceId) {
	return state.dataSourceRules?.get(dataSourceId);
}

function setRules(state, dataSourceId, rules) {
	if (!state.dataSourceRules) state.dataSourceRules = new Map();
	state.dataSourceRules.set(dataSourceId, rules);
}

/** Whether the principal sees the data source at all (its organization's, or public ones). */
function visible(dataSource, principal) {
	if (dataSource.public) return true;
	return !!principal && principal.organizationId === dataSource.organizationId;
}

/**
 * The data source a path names: an all-digit segment is an id unless `?dsn` is present, anything
 * else (or `?dsn`) is a name. 404 when it does not exist or the token cannot see it.
 */
function findDataSource(state, principal, segment, query) {
	const byName = query.dsn !== undefined || !/^\d+$/.test(segment);
	const candidates = state.dataSources.filter((dataSource) => visible(dataSource, principal));
	const found = byName
		? candidates.find((dataSource) => dataSource.name === segment)
		: candidates.find((dataSource) => dataSource.id === Number(segment));
	if (!found && !principal) throw unauthorised();
	if (!found) throw notFound(`Data source "${segment}" not found`);
	return found;
}

/**
 * Checks one permission (read, write, update, delete). Public data sources need no token; with
 * security rules only app API tokens granted the permission pass, with the platform's 400. The
 * rules a create sent (`accessRules`, see accessRules.js) apply to app API tokens; organization
 * and Studio user tokens manage the data source and pass.
 */
function requirePermission(state, principal, dataSource, permission) {
	if (!principal) {
		if (dataSource.public) return;
		throw unauthorised();
	}
	const rules = rulesOf(state, dataSource.id);
	const ownRules = Array.isArray(dataSource.accessRules) && dataSource.accessRules.length > 0;
	if (!rules && !(ownRules && principal.kind === 'app')) return;
	const granted = rules
		? principal.kind === 'app' && (rules[principal.token] ?? []).includes(permission)
		: rulesAllow(state, dataSource.accessRules, principal, permission);
	if (!granted) {
		throw badRequest(
			`The security rules for the Data Source "${dataSource.name}" do not allow this app to ${VERBS[permission]} data.`,
			{ type: 'datasource.access', payload: { dataSourceId: dataSource.id } },
		);
	}
}

/** Resolves `:ds` and checks every permission listed. */
function openDataSource(ctx, ...permissions) {
	const dataSource = findDataSource(ctx.state, ctx.principal, ctx.params.ds, ctx.query);
	for (const permission of permissions)
		requirePermission(ctx.state, ctx.principal, dataSource, permission);
	return dataSource;
}

/**
 * Like openDataSource, for changing the data source itself (rename, delete, restore a version):
 * "public" opens its entries to anyone, not its management, which stays with its organization.
 */
function openOwnDataSource(ctx, ...permissions) {
	const dataSource = openDataSource(ctx, ...permissions);
	if (!ctx.principal) throw unauthorised();
	if (ctx.principal.organizationId !== dataSource.organizationId)
		throw notFound(`Data source "${ctx.params.ds}" not found`);
	return dataSource;
}

module.exports = { openDataSource, openOwnDataSource, setRules, rulesOf };
