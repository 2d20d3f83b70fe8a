'use strict';

const { badRequest, isObject } = require('../http');
const { findAppPair } = require('../access');

/** The operations a rule's `type` lists, by the sandbox's permission names. */
const OPERATIONS = { read: 'select', write: 'insert', update: 'update', delete: 'delete' };
const TYPES = Object.values(OPERATIONS);

const isIdList = (value) => Array.isArray(value) && value.every(Number.isInteger);

/**
 * Checks the security rules a create sends (`accessRules`, as the platform's VS Code extension
 * and JS docs send them: `{type: ['select', …], allow, appId?, enabled?, …}`): 400 for a shape the
 * rule docs do not describe (`Fliplet/fliplet-cli: docs/Data-source-security.md`).
 */
function checkAccessRules(rules) {
	if (!Array.isArray(rules)) throw badRequest('"accessRules" must be a list of rules.');
	for (const rule of rules) {
		const allow = rule?.allow;
		const allowed =
			allow === 'all' ||
			allow === 'loggedIn' ||
			(isObject(allow) && (isObject(allow.user) || isIdList(allow.tokens)));
		if (
			!isObject(rule) ||
			!Array.isArray(rule.type) ||
			!rule.type.length ||
			rule.type.some((type) => !TYPES.includes(type)) ||
			(rule.script === undefined && !allowed) ||
			(rule.appId !== undefined && !isIdList(rule.appId)) ||
			(rule.enabled !== undefined && typeof rule.enabled !== 'boolean')
		) {
			throw badRequest(
				`Each security rule needs "type" (a list of ${TYPES.join(', ')}) and "allow" ("all", "loggedIn", {user} or {tokens}); "appId" is a list of app ids and "enabled" true or false.`,
			);
		}
	}
	return rules.map((rule) => ({ ...rule }));
}

/**
 * Whether a data source's own security rules let an app API token do an operation: an enabled
 * rule for that operation, for the token's app (by its draft or published id, or any app) that
 * allows everyone or that token. A token has no user session, so `loggedIn` and `{user}` rules
 * do not let it in.
 */
function rulesAllow(state, rules, principal, permission) {
	const pair = findAppPair(state, principal.appId);
	const appIds = pair ? [pair.draft.id, pair.publishedId] : [principal.appId];
	return rules.some(
		(rule) =>
			rule.enabled !== false &&
			rule.type.includes(OPERATIONS[permission]) &&
			(rule.appId === undefined || rule.appId.some((id) => appIds.includes(id))) &&
			(rule.allow === 'all' || (isObject(rule.allow) && rule.allow.tokens?.includes(principal.id))),
	);
}

module.exports = { checkAccessRules, rulesAllow };
