'use strict';
// Shared by the end-to-end and browser checks of runs that use AI.

const assert = require('node:assert/strict');

/**
 * The requests of a run that uses AI, without the one `GET /v1/apps` a process sends before its
 * first AI request to learn the app's organization (whose AI window it is). Fails if that look-up
 * is sent more than once, or after an AI request.
 */
function withoutOrganizationLookup(requests) {
	const isLookup = (request) => request.method === 'GET' && request.path === '/v1/apps';
	const lookups = requests.filter(isLookup);
	assert.ok(lookups.length <= 1, `the organization is looked up once, not ${lookups.length} times`);
	const firstAi = requests.findIndex((request) => /^\/v1\/apps\/[^/]+\/ai\//.test(request.path));
	if (lookups.length) assert.ok(requests.indexOf(lookups[0]) < firstAi, 'looked up before AI');
	return requests.filter((request) => !isLookup(request));
}

module.exports = { withoutOrganizationLookup };
