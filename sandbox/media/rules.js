'use strict';

const { badRequest, isObject } = require('../http');
const { findAppPair } = require('../access');

/** The operations a file or folder rule can grant (`Fliplet/fliplet-cli: docs/File-security.md`). */
const TYPES = ['read', 'create', 'update', 'delete'];
/** "A maximum of 20 rules can be configured per resource" (the same doc, and the media REST docs). */
const MAX_RULES = 20;

const isIdList = (value) => Array.isArray(value) && value.every(Number.isInteger);

/**
 * Checks the rules a PUT of `…/accessRules` sends: `null` clears them, otherwise a list of at most
 * 20 rules `{type, allow, enabled?, appId?, name?, script?, stop?}`. `create` is a folder's (and an
 * app root's) operation only, and `{dataSource}` a file's only allow mode. 400 for anything else.
 * @param {unknown} rules
 * @param {'file' | 'folder' | 'app'} resource
 */
function checkFileRules(rules, resource) {
	if (rules === null) return null;
	if (!Array.isArray(rules)) throw badRequest('"accessRules" must be a list of rules, or null.');
	if (rules.length > MAX_RULES) {
		throw badRequest(`A maximum of ${MAX_RULES} rules can be configured per resource.`);
	}
	for (const rule of rules) {
		const allow = rule?.allow;
		const allowed =
			allow === 'all' ||
			allow === 'loggedIn' ||
			(isObject(allow) &&
				(isObject(allow.user) ||
					isIdList(allow.tokens) ||
					(resource === 'file' && isObject(allow.dataSource))));
		const types = Array.isArray(rule?.type) ? rule.type : [];
		if (
			!isObject(rule) ||
			!types.length ||
			types.some((type) => !TYPES.includes(type)) ||
			(resource === 'file' && types.includes('create')) ||
			(rule.script === undefined && !allowed) ||
			(rule.script !== undefined && typeof rule.script !== 'string') ||
			(rule.appId !== undefined && !isIdList(rule.appId)) ||
			(rule.enabled !== undefined && typeof rule.enabled !== 'boolean') ||
			(rule.stop !== undefined && typeof rule.stop !== 'boolean')
		) {
			throw badRequest(
				`Each access rule needs "type" (a list of ${TYPES.join(', ')}; "create" only on folders) and "allow" ("all", "loggedIn", {user}, {tokens}${resource === 'file' ? ' or {dataSource}' : ''}); "appId" is a list of app ids, "enabled" and "stop" true or false.`,
			);
		}
	}
	return rules.map((rule) => ({ ...rule }));
}

/** The ids an app is known by (draft and published), so a rule naming either applies. */
function appIdsOf(state, appId) {
	const pair = appId == null ? undefined : findAppPair(state, appId);
	return pair ? [pair.draft.id, pair.publishedId] : appId == null ? [] : [appId];
}

/**
 * Whether a rule list lets the principal do `type`, evaluated as the platform documents it:
 * top to bottom, the first enabled rule for the operation (and the app, when it names apps) that
 * matches grants; a rule with `stop` that does not match denies at once; no match denies. An API
 * token has no user session, so `loggedIn`, `{user}`, `{dataSource}` and scripts never match it
 * (as the sandbox's data-source rules): `all` matches everyone, `{tokens}` the listed tokens.
 */
function rulesGrant(state, rules, principal, type) {
	const principalApps = principal?.appId === undefined ? [] : appIdsOf(state, principal.appId);
	for (const rule of rules ?? []) {
		if (rule.enabled === false || !rule.type?.includes(type)) continue;
		if (rule.appId && principal && !rule.appId.some((id) => principalApps.includes(id))) continue;
		const allow = rule.allow;
		const matches =
			rule.script === undefined &&
			(allow === 'all' ||
				(isObject(allow) &&
					!!principal &&
					Array.isArray(allow.tokens) &&
					allow.tokens.includes(principal.id)));
		if (matches) return true;
		if (rule.stop) return false;
	}
	return false;
}

/** Whether a rule list grants everyone read: "an unconditional public read rule". */
function grantsPublicRead(rules) {
	return (rules ?? []).some(
		(rule) =>
			rule.enabled !== false &&
			rule.type?.includes('read') &&
			rule.allow === 'all' &&
			rule.appId === undefined &&
			rule.script === undefined,
	);
}

module.exports = { checkFileRules, rulesGrant, grantsPublicRead, appIdsOf, MAX_RULES };
