'use strict';
// What each end-to-end workflow must produce in real n8n, and what the sandbox must have received
// and stored. A check gets:
//   run       { status, error, nodes: name -> { items: [{ json, binary }], requests: [...] } }
//             (requests: what the sandbox received while that node ran)
//   requests  every request of the workflow's run
//   state     the sandbox's state after the run
// Binary outputs are checked inside the workflows (a Code node reads them through n8n's binary
// helpers and reports size and hash), since real n8n keeps binary data in its own storage.
// and throws (node:assert) when something is wrong.

const assert = require('node:assert/strict');

const json = (run, node) => run.nodes[node].items.map((item) => item.json);

const checks = {
	'app.workflow.json': ({ run, requests, state }) => {
		assert.equal(run.status, 'success');
		assert.deepEqual(
			json(run, 'List Apps').map((app) => [app.name, app.productionAppId]),
			[
				['Staff Directory', 11],
				['Field Reports', 21],
			],
		);
		assert.deepEqual(
			json(run, 'Publish Update').map((app) => [app.id, app.version]),
			[
				[10, 2],
				[20, 2],
			],
		);
		const publishes = run.nodes['Publish Update'].requests;
		assert.deepEqual(
			publishes.map((request) => [request.method, request.path, request.body]),
			[
				[
					'POST',
					'/v1/apps/11/publish',
					{ release: { type: 'visible', changelog: 'Release for Staff Directory' } },
				],
				[
					'POST',
					'/v1/apps/21/publish',
					{ release: { type: 'visible', changelog: 'Release for Field Reports' } },
				],
			],
		);
		for (const request of publishes)
			assert.equal(request.headers['auth-token'], 'eu--sandbox-org-token');
		assert.equal(state.apps.find((app) => app.id === 10).releases[0].type, 'visible');
		const sessions = json(run, 'Read Sessions');
		assert.equal(sessions.length, 2);
		assert.equal(sessions[0].user.email, 'user1@example.com');
		const [sessionRequest] = run.nodes['Read Sessions'].requests;
		assert.equal(sessionRequest.path, '/v1/apps/11/analytics/sessions');
		assert.equal(sessionRequest.headers['auth-token'], 'eu--sandbox-app-token');
		assert.equal(requests.length, 4);
	},

	'errors.workflow.json': ({ run, requests, state }) => {
		assert.equal(run.status, 'success', 'continue on fail must keep the run going');
		const [published, refused, invalid] = run.nodes['Publish Update'].items;
		assert.equal(published.json.version, 2);
		assert.match(String(refused.json.error), /not available|404|not found/i);
		assert.match(String(invalid.json.error), /not an id/);
		assert.ok(invalid.json.description, 'a bad item carries a hint on how to fix it');
		assert.deepEqual(
			requests.map((request) => [request.method, request.path, request.status >= 300]),
			[
				['POST', '/v1/apps/11/publish', false],
				['POST', '/v1/apps/31/publish', true],
			],
			'the invalid id is refused before any request',
		);
		assert.equal(state.apps.find((app) => app.id === 30).releases.length, 0);
	},
};

module.exports = { checks };
