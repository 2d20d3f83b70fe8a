'use strict';
// What each end-to-end workflow must produce in real n8n, and what the sandbox must have received
// and stored. A check gets:
//   run       { status, error, nodes: name -> { items: [{ json, binary }], requests: [...] } }
//             (requests: what the sandbox received while that node ran)
//   requests  every request of the workflow's run
//   state     the sandbox's state after the run
// Binary outputs are checked inside the workflows (a Code node reads them through n8n's binary
// helpers and reports size and hash), since real n8n keeps binary data in its own storage.
// and throws (node:assert) when something is wrong. An entry may also be `{ setup, check }`:
// setup(sandbox) runs on the workflow's sandbox before n8n runs anything. A failed run has
// status 'error' and only n8n's error message (n8n saves no run data for it).

const assert = require('node:assert/strict');

const { withoutOrganizationLookup } = require('./organizationLookup');

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

const SAMPLE_PHOTO = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgaGgAAAHEAMFBlSaXAAAAAElFTkSuQmCC',
	'base64',
);
const SAMPLE_MEMO = Buffer.from('fake opus frames for the sandbox');
const SAMPLE_REPORT = 'Name,Visits\nAlice,3\nBob,5\n';

/** The one file part of a multipart request the sandbox parsed. */
function onlyFile(request) {
	const files = request.body?.multipart?.files ?? [];
	assert.equal(files.length, 1, `one file part in ${request.path}`);
	return files[0];
}

checks['binary.workflow.json'] = ({ run, state }) => {
	assert.equal(run.status, 'success');

	// A file into an entry: multipart with the photo, stored by the platform, URL in the column.
	const [insert] = run.nodes['Insert With Photo'].requests;
	assert.deepEqual([insert.method, insert.path], ['PUT', '/v1/data-sources/100/data']);
	const photo = onlyFile(insert);
	assert.equal(photo.name, 'Photo');
	assert.equal(photo.fileName, 'gus.png');
	assert.match(photo.mimeType, /^image\/png/);
	assert.ok(Buffer.from(photo.data).equals(SAMPLE_PHOTO), 'the photo bytes arrive unchanged');
	assert.equal(insert.body.multipart.fields.Name, 'Gus Hale');
	const [entry] = json(run, 'Insert With Photo');
	assert.equal(entry.data.Name, 'Gus Hale');
	const stored = state.media.get(entry.data.PhotoMediaFileId);
	assert.ok(
		stored && Buffer.from(stored.data).equals(SAMPLE_PHOTO),
		'the sandbox stored the photo',
	);
	assert.equal(entry.data.Photo, stored.url);

	// An audio file to transcription: one `file` part with the audio type, and the model.
	const [audio] = withoutOrganizationLookup(run.nodes['Transcribe Memo'].requests);
	assert.deepEqual([audio.method, audio.path], ['POST', '/v1/apps/11/ai/audio']);
	const memo = onlyFile(audio);
	assert.equal(memo.name, 'file');
	assert.match(memo.mimeType, /^audio\/webm/);
	assert.ok(Buffer.from(memo.data).equals(SAMPLE_MEMO));
	assert.equal(audio.body.multipart.fields.model, 'whisper-1');
	assert.doesNotMatch(String(audio.headers['content-type']), /json/);
	assert.deepEqual(json(run, 'Transcribe Memo'), [
		{ text: `Transcript of memo.webm (${SAMPLE_MEMO.length} bytes)` },
	]);

	// An email attachment from binary data.
	const [email] = run.nodes['Email Report'].requests;
	assert.deepEqual([email.method, email.path], ['POST', '/v1/communicate/email']);
	assert.deepEqual(email.body.to, [{ email: 'ann@example.com', type: 'to' }]);
	assert.equal(email.body.attachments.length, 1);
	const [attachment] = email.body.attachments;
	assert.equal(attachment.name, 'report.csv');
	assert.match(attachment.type, /^text\/csv/);
	const content =
		attachment.encoding === 'base64'
			? Buffer.from(attachment.content, 'base64').toString('utf8')
			: attachment.content;
	assert.equal(content, SAMPLE_REPORT);
	assert.equal(state.sent.emails.length, 1);
	assert.deepEqual(json(run, 'Email Report')[0].attachments, ['report.csv']);

	// A generated image comes out as binary in n8n's storage, readable by the next node.
	const [image] = run.nodes['Generate Icon'].requests;
	assert.deepEqual([image.method, image.path], ['POST', '/v1/apps/11/ai/image']);
	assert.equal(image.body.n, 2);
	const icons = run.nodes['Generate Icon'].items;
	assert.equal(icons.length, 2);
	for (const icon of icons) assert.ok(icon.binary?.data?.id, 'stored by id, not inline');
	const expected = require('../../sandbox/ai/providers').TINY_PNG_BASE64;
	for (const file of json(run, 'Icon Files')) {
		assert.equal(file.base64, expected, 'the image bytes are what the API returned');
		assert.equal(file.mimeType, 'image/png');
		assert.match(file.fileName, /\.png$/);
	}
};

/** The one request a node sent, checked for method and path. */
function onlyRequest(run, node, method, path) {
	const requests = run.nodes[node].requests;
	assert.deepEqual(
		requests.map((request) => [request.method, request.path]),
		[[method, path]],
		`${node} sends one ${method} ${path}`,
	);
	return requests[0];
}

checks['resources.workflow.json'] = ({ run, state, tokens }) => {
	assert.equal(run.status, 'success');
	const list = onlyRequest(run, 'List Data Sources', 'GET', '/v1/data-sources');
	assert.equal(list.query.appId, '11');
	assert.deepEqual(
		json(run, 'List Data Sources').map((dataSource) => dataSource.name),
		state.dataSources
			.filter((dataSource) => dataSource.appId === 11)
			.map((dataSource) => dataSource.name),
	);

	onlyRequest(run, 'List Versions', 'GET', '/v1/data-sources/100/versions');
	assert.ok(json(run, 'List Versions').every((version) => version.dataSourceId === 100));

	// Read with POST and a JSON body, as the platform's JS API reads audit logs.
	const logs = onlyRequest(run, 'Read Audit Log', 'POST', '/v1/organizations/1/logs');
	assert.equal(logs.body.limit, 3);
	assert.ok(json(run, 'Read Audit Log').length <= 3);

	onlyRequest(run, 'List Org Tokens', 'GET', '/v1/organizations/1/tokens');
	assert.ok(json(run, 'List Org Tokens').some((token) => token.type === 'integrationToken'));

	const sms = onlyRequest(run, 'Text The Team', 'POST', '/v1/communicate/sms');
	assert.deepEqual(sms.body, { data: { to: '+447700900123', body: 'Stand-up moved to 10:30' } });
	assert.equal(state.sent.sms.length, 1);

	const notification = onlyRequest(run, 'Announce', 'PUT', '/v1/apps/11/notifications');
	assert.equal(notification.body.status, 'published');
	assert.deepEqual(notification.body.data, {
		title: 'Office closed',
		message: 'The office is closed on Friday',
	});
	const [created] = json(run, 'Announce');
	assert.equal(created.status, 'published');
	assert.ok(state.notifications.some((stored) => stored.id === created.id));

	for (const node of Object.values(run.nodes)) {
		for (const request of node.requests) assert.equal(request.headers['auth-token'], tokens.org);
	}
};

/**
 * A draft never carries a push (Fliplet sends a push payload whatever the status): the draft with
 * push options is refused before any request, the draft saved without them reaches no device, and
 * publishing it with Update and the push sends it to both of the app's devices.
 */
checks['notifications.workflow.json'] = ({ run, state }) => {
	assert.equal(run.status, 'success', run.error?.message);
	const [refused] = json(run, 'Draft With Push');
	assert.match(String(refused.error), /a draft cannot carry a push notification/);
	assert.match(String(refused.description), /run Update with Status Published or Scheduled/);
	assert.deepEqual(run.nodes['Draft With Push'].requests, [], 'refused before any request');

	const saved = onlyRequest(run, 'Save Draft', 'PUT', '/v1/apps/11/notifications');
	assert.equal(saved.body.status, 'draft');
	assert.equal(saved.body.pushNotification, undefined, 'the draft carries no push');
	const [draft] = json(run, 'Save Draft');

	const publish = run.nodes['Publish With Push'].requests;
	assert.deepEqual(
		publish.map((request) => [request.method, request.path]),
		[
			['POST', '/v1/apps/11/notifications'],
			['PUT', `/v1/apps/11/notifications/${draft.id}`],
		],
		'the stored title and message are read for the push, then it is published',
	);
	assert.deepEqual(publish[1].body.pushNotification, {
		payload: {
			title: 'Office closed',
			body: 'The office is closed on Friday',
			sound: 'default',
			priority: 'high',
			icon: 'icon_notification',
		},
	});
	assert.deepEqual(
		state.pushes.map((push) => [
			push.notificationId,
			push.status,
			push.devices.map((d) => d.subscriptionId),
		]),
		[[draft.id, 'published', [71, 72]]],
		'only the published notification reached devices; the draft reached none',
	);
	process.stdout.write(
		`      pushes: draft with push refused (0 devices), published: ${state.pushes[0].devices.length} devices\n`,
	);
};

const staffOf = (state) => state.entries.filter((entry) => entry.dataSourceId === 100);
const STAFF_EMAILS = [
	'alice@example.com',
	'bob@example.com',
	'carla@example.com',
	'dan@example.com',
	'eve@example.com',
];

/** Activated workflows: at least one execution, and none failed. */
function assertExecutionsSucceeded(run) {
	assert.ok(run.executions.length >= 1, 'the trigger started an execution');
	for (const execution of run.executions) assert.equal(execution.status, 'success');
}

checks['sync-spreadsheet.json'] = ({ run, state }) => {
	assert.equal(run.status, 'success');
	assert.deepEqual(
		json(run, 'Extract from File').map((row) => row.Email),
		['alice@example.com', 'bob@example.com', 'frank@example.com'],
	);
	const commits = run.nodes['Create or Update Staff'].requests.filter((request) =>
		/commit$/.test(request.path),
	);
	assert.ok(commits.length >= 1);
	for (const commit of commits)
		assert.equal(commit.body.append, true, 'a sync never replaces the data');
	assert.deepEqual(
		json(run, 'Create or Update Staff').map((item) => [item.data.Email, item.action]),
		[
			['alice@example.com', 'update'],
			['bob@example.com', 'unchanged'],
			['frank@example.com', 'insert'],
		],
		'one item per row, saying what happened',
	);
	const alice = staffOf(state).find((entry) => entry.data.Email === 'alice@example.com');
	// The commits travel together: either may reach the sandbox first, so updates (by id) are
	// compared before inserts whatever order they arrived in.
	const sent = commits
		.flatMap((commit) => commit.body.entries)
		.sort((a, b) => Number('id' in b) - Number('id' in a));
	assert.deepEqual(
		sent,
		[
			{ id: alice.id, data: { Department: 'Marketing' } },
			{
				// The new row's id comes back by the clientId it carries.
				clientId: 'n8n-row-2',
				data: { Name: 'Frank Ode', Email: 'frank@example.com', Department: 'Support', Age: 31 },
			},
		],
		"only the changed row's changed cell and the new row are sent",
	);
	assert.equal(staffOf(state).length, 6);
	assert.equal(alice.data.Department, 'Marketing');
	assert.deepEqual(alice.data.Address, { city: 'London' }, 'columns not in the sheet are kept');
	const frank = staffOf(state).find((entry) => entry.data.Email === 'frank@example.com');
	assert.equal(frank.data.Age, 31, 'spreadsheet text written as the number its column holds');
	assert.deepEqual(
		json(run, 'Create or Update Staff').map((item) => item.id),
		[alice.id, staffOf(state).find((entry) => entry.data.Email === 'bob@example.com').id, frank.id],
		"each item names its entry's id",
	);
};

checks['scheduled-notification.json'] = ({ run, state }) => {
	assert.equal(run.status, 'success');
	const request = onlyRequest(run, 'Publish Notification', 'PUT', '/v1/apps/11/notifications');
	assert.equal(request.body.status, 'published');
	assert.equal(request.body.data.title, 'Weekly update');
	assert.match(request.body.data.message, /^Week \d{1,2}: the new rota is in the app\.$/);
	assert.ok(request.body.pushNotification, 'sent as a push notification too');
	assert.equal(request.body.scope, undefined, 'no scope: every user of the app');
	const [created] = json(run, 'Publish Notification');
	const stored = state.notifications.find((notification) => notification.id === created.id);
	assert.equal(stored?.status, 'published');
};

checks['new-entry-email.json'] = ({ run, requests, state }) => {
	assert.deepEqual(
		state.sent.emails.map((email) => email.to[0].email).sort(),
		STAFF_EMAILS,
		'one welcome email per entry',
	);
	const alice = state.sent.emails.find((email) => email.to[0].email === 'alice@example.com');
	assert.equal(alice.subject, 'Welcome, Alice Martin');
	assert.equal(alice.html, '<p>Hi Alice Martin, welcome to the Sales team!</p>');
	assert.equal(requests.filter((request) => request.path === '/v1/communicate/email').length, 5);
	assertExecutionsSucceeded(run);
};

checks['new-entry-sms.json'] = ({ run, state }) => {
	assert.deepEqual(state.sent.sms, [
		{ data: { to: '+447700900123', body: 'New event: Open day on 2026-02-01' } },
	]);
	assertExecutionsSucceeded(run);
};

checks['ai-summary-email.json'] = ({ run, requests, state }) => {
	const completions = requests.filter((request) => request.path === '/v1/apps/11/ai/completions');
	assert.equal(completions.length, 1, 'one summary for all new entries');
	const { messages, model } = completions[0].body;
	assert.equal(model, 'gpt-4o-mini');
	assert.equal(messages[0].role, 'system');
	const prompt = messages[messages.length - 1].content;
	assert.match(prompt, /^Summarise these 5 new entries:/);
	for (const email of STAFF_EMAILS) assert.ok(prompt.includes(email), `${email} in the prompt`);
	assert.equal(state.sent.emails.length, 1);
	const [summary] = state.sent.emails;
	assert.deepEqual(summary.to, [{ email: 'lead@example.com', type: 'to' }]);
	assert.equal(summary.subject, 'New staff: 5 entries');
	assert.match(summary.html, /^<p>Echo: Summarise these 5 new entries/);
	assertExecutionsSucceeded(run);
};

checks['rate-limit.workflow.json'] = {
	setup(sandbox) {
		sandbox.rateLimiter.limits.communicate = { limit: 2, windowMs: 1500 };
	},
	check({ run, requests, state }) {
		assert.equal(run.status, 'success');
		const refused = requests.filter((request) => request.status === 429);
		assert.ok(refused.length >= 1, 'the sandbox refused some sends');
		assert.deepEqual(
			state.sent.sms.map((sms) => sms.data.body),
			['Reminder 1', 'Reminder 2', 'Reminder 3', 'Reminder 4'],
			'every message arrives once, in order, after waiting',
		);
		assert.deepEqual(
			json(run, 'Text Each').map((item) => item.to),
			['+447700900101', '+447700900102', '+447700900103', '+447700900104'],
		);
		const accepted = requests.filter((request) => request.status < 300);
		assert.ok(accepted[2].at - accepted[0].at >= 1000, 'the third send waited for the window');
	},
};

checks['stops-on-error.workflow.json'] = ({ run, requests, state }) => {
	assert.equal(run.status, 'error');
	// n8n reports the error's description: the hint on how to fix it.
	assert.match(run.error, /productionAppId/);
	assert.match(run.error, /Publish Other App/);
	assert.deepEqual(
		requests.map((request) => [request.method, request.path, request.status]),
		[['POST', '/v1/apps/31/publish', 404]],
		'a refusal is not retried',
	);
	assert.equal(state.apps.find((app) => app.id === 30).releases.length, 0);
};

const COMPLETIONS = '/v1/apps/11/ai/completions';
/** One agent turn with one tool use: model call with the tool, Get Many, model call with the result. */
const AGENT_TURN = [
	['POST', COMPLETIONS, 200],
	['POST', '/v1/data-sources/100/data/query', 200],
	['POST', COMPLETIONS, 200],
];

/**
 * The agent's round trip, in order: a completion with the tool declared (the sandbox answers a
 * call of the tool the question names), the tool's Get Many, then a completion with the tool's
 * result (the sandbox answers text quoting it). Prints the request log and the turn's time.
 */
checks['ask-your-data.json'] = ({ run, requests: all, state }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	const log = requests.map((request) => `${request.method} ${request.path} → ${request.status}`);
	const turnMs = requests[requests.length - 1].at - requests[0].at;
	process.stdout.write(`      agent requests: ${log.join(' | ')} (turn: ${turnMs} ms)\n`);
	assert.deepEqual(
		requests.map((request) => [request.method, request.path, request.status]),
		AGENT_TURN,
	);
	const [ask, , answer] = requests;
	assert.equal(ask.body.model, 'gpt-4o-mini');
	assert.deepEqual(
		ask.body.tools.map((tool) => [tool.type, tool.function.name]),
		[['function', 'Staff_Directory']],
	);
	assert.equal(ask.body.tools[0].function.parameters.type, 'object');
	assert.deepEqual(
		ask.body.messages.map((message) => message.role),
		['system', 'user'],
	);
	assert.match(ask.body.messages[1].content, /^Who works in Sales\?/);
	const [system, user, call, result] = answer.body.messages;
	assert.deepEqual([system.role, user.role], ['system', 'user']);
	assert.equal(call.role, 'assistant');
	assert.deepEqual(
		call.tool_calls.map((toolCall) => [toolCall.id, toolCall.type, toolCall.function.name]),
		[['call_sandbox_1', 'function', 'Staff_Directory']],
	);
	// n8n's agent adds the call's id to the arguments it keeps in the conversation.
	assert.equal(typeof JSON.parse(call.tool_calls[0].function.arguments), 'object');
	assert.equal(result.role, 'tool');
	assert.equal(result.tool_call_id, 'call_sandbox_1');
	assert.match(result.content, /Alice Martin/);
	const [output] = json(run, 'AI Agent');
	process.stdout.write(`      agent answer: ${output.output.slice(0, 160)}…\n`);
	// Names only the sandbox's Staff data holds reach the answer through the tool.
	assert.match(output.output, /^Staff_Directory answered: /);
	for (const name of ['Alice Martin', 'Bob Stone']) assert.ok(output.output.includes(name), name);
	assert.deepEqual(
		state.ai.calls.map((call) => [call.endpoint, call.format, call.model]),
		[
			['completions', 'chat-completions', 'gpt-4o-mini'],
			['completions', 'chat-completions', 'gpt-4o-mini'],
		],
	);
	assert.equal(state.ai.credits[11], 998, 'two credits: one per model call');
	for (const request of requests)
		assert.equal(request.headers['auth-token'], 'eu--sandbox-org-token');
};

/**
 * The same agent on Gemini: the Chat Model sends Gemini's generate-content format with
 * `aiProvider: 'gemini'` (as the platform's JS API does), the tool as a function declaration that
 * passes Gemini's checks, and the tool's result as a function response named after the call, with
 * the call's thought signature kept through n8n's real agent.
 */
checks['gemini-agent.workflow.json'] = ({ run, requests: all, state }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	assert.deepEqual(
		requests.map((request) => [request.method, request.path, request.status]),
		AGENT_TURN,
	);
	const [ask, , answer] = requests;
	assert.equal(ask.body.model, 'gemini-2.5-flash');
	assert.equal(ask.body.aiProvider, 'gemini');
	assert.equal(ask.body.messages, undefined);
	assert.deepEqual(ask.body.generationConfig, { temperature: 0.2, topK: 20 });
	assert.match(ask.body.systemInstruction.parts[0].text, /^You answer questions about the staff/);
	assert.deepEqual(
		ask.body.tools.flatMap((tool) =>
			tool.functionDeclarations.map((declaration) => declaration.name),
		),
		['Staff_Directory'],
	);
	assert.deepEqual(
		ask.body.contents.map((content) => content.role),
		['user'],
	);
	const [, call, result] = answer.body.contents;
	assert.deepEqual(
		answer.body.contents.map((content) => content.role),
		['user', 'model', 'user'],
	);
	assert.equal(call.parts[0].functionCall.name, 'Staff_Directory');
	// Gemini's own call back: its thought signature, and no `id` that n8n's agent adds to arguments.
	assert.equal(typeof call.parts[0].thoughtSignature, 'string', JSON.stringify(call.parts[0]));
	assert.deepEqual(call.parts[0].functionCall.args, {});
	assert.equal(result.parts[0].functionResponse.name, 'Staff_Directory');
	assert.match(result.parts[0].functionResponse.response.output, /Alice Martin/);
	const [output] = json(run, 'AI Agent');
	process.stdout.write(`      gemini agent answer: ${output.output.slice(0, 120)}…\n`);
	assert.match(output.output, /^Staff_Directory answered: /);
	assert.ok(output.output.includes('Alice Martin'));
	assert.deepEqual(
		state.ai.calls.map((call) => [call.endpoint, call.format, call.model]),
		[
			['completions', 'generate-content', 'gemini-2.5-flash'],
			['completions', 'generate-content', 'gemini-2.5-flash'],
		],
	);
};

/** A Basic LLM Chain whose structured output parser reads the model's JSON answer. */
checks['llm-chain.workflow.json'] = ({ run, requests: all }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	assert.equal(requests.length, 1);
	const [request] = requests;
	assert.equal(request.path, COMPLETIONS);
	assert.deepEqual(
		{ ...request.body, messages: undefined, response_format: undefined },
		{
			model: 'gpt-4.1-mini',
			messages: undefined,
			temperature: 0.2,
			max_completion_tokens: 300,
			response_format: undefined,
		},
	);
	// The Structured Output Parser's schema goes as a strict json_schema (it upgrades JSON mode).
	const format = request.body.response_format;
	assert.equal(format.type, 'json_schema');
	assert.equal(format.json_schema.name, 'structured_output');
	assert.equal(format.json_schema.strict, true, JSON.stringify(format));
	assert.deepEqual(Object.keys(format.json_schema.schema.properties), ['output']);
	assert.equal(request.body.tools, undefined, 'no tools declared by a chain');
	assert.match(request.body.messages[0].content, /^Give a title and a priority for: the printer/);
	assert.match(request.body.messages[0].content, /```json/);
	assert.deepEqual(json(run, 'Classify Request'), [
		{
			output: {
				title: 'Echo: Give a title and a priority for: the printer on floor 2 is jammed',
				priority: 0,
				urgent: false,
			},
		},
	]);
};

/**
 * The same chain on gpt-4, which refuses json_schema: the parser's schema goes as one strict
 * function forced with tool_choice, in one request, and the parser reads its call's arguments.
 */
checks['gpt4-llm-chain.workflow.json'] = ({ run, requests: all }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	assert.equal(requests.length, 1);
	const [request] = requests;
	assert.equal(request.body.model, 'gpt-4');
	assert.equal(request.body.response_format, undefined);
	assert.deepEqual(request.body.tool_choice, {
		type: 'function',
		function: { name: 'structured_output' },
	});
	assert.equal(request.body.tools.length, 1);
	const [{ function: declared }] = request.body.tools;
	assert.equal(declared.name, 'structured_output');
	assert.equal(declared.strict, true, JSON.stringify(declared));
	assert.deepEqual(Object.keys(declared.parameters.properties), ['output']);
	assert.deepEqual(json(run, 'Classify Request'), [
		{
			output: {
				title: 'Echo: Give a title and a priority for: the printer on floor 2 is jammed',
				priority: 0,
				urgent: false,
			},
		},
	]);
};

/**
 * The same chain on Gemini: the parser's schema goes as Gemini's responseSchema (without the JSON
 * Schema keywords Gemini refuses), and the parser reads the answer.
 */
checks['gemini-llm-chain.workflow.json'] = ({ run, requests: all }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	assert.equal(requests.length, 1);
	const [request] = requests;
	assert.equal(request.body.aiProvider, 'gemini');
	const { responseSchema, ...config } = request.body.generationConfig;
	assert.deepEqual(config, {
		temperature: 0.2,
		maxOutputTokens: 300,
		responseMimeType: 'application/json',
	});
	assert.deepEqual(Object.keys(responseSchema.properties), ['output']);
	assert.doesNotMatch(JSON.stringify(responseSchema), /additionalProperties|\$schema/);
	assert.equal(request.body.tools, undefined, 'no tools declared by a chain');
	assert.match(
		request.body.contents[0].parts[0].text,
		/^Give a title and a priority for: the printer/,
	);
	assert.deepEqual(json(run, 'Classify Request'), [
		{
			output: {
				title: 'Echo: Give a title and a priority for: the printer on floor 2 is jammed',
				priority: 0,
				urgent: false,
			},
		},
	]);
};

const EMBEDDINGS = '/v1/apps/11/ai/embeddings';

/**
 * Fliplet Embeddings under n8n's Simple Vector Store: three notes embedded in batches of two, then
 * a question (the text of one note, so the sandbox's hash vectors match it exactly) finds it first.
 */
checks['vector-store.workflow.json'] = ({ run, requests: all, state }) => {
	const requests = withoutOrganizationLookup(all);
	assert.equal(run.status, 'success', run.error?.message);
	assert.deepEqual(
		requests.map((request) => [request.method, request.path, request.status]),
		[
			['POST', EMBEDDINGS, 200],
			['POST', EMBEDDINGS, 200],
			['POST', EMBEDDINGS, 200],
		],
	);
	assert.deepEqual(
		requests.map((request) => request.body),
		[
			{
				model: 'text-embedding-3-small',
				encoding_format: 'float',
				input: [
					'Alice Martin leads the Sales team in London.',
					'Bob Stone builds the mobile app in Paris.',
				],
			},
			{
				model: 'text-embedding-3-small',
				encoding_format: 'float',
				input: ['Carla Diaz runs the quarterly sales review.'],
			},
			{
				model: 'text-embedding-3-small',
				encoding_format: 'float',
				input: ['Bob Stone builds the mobile app in Paris.'],
			},
		],
	);
	const found = json(run, 'Ask');
	assert.equal(found.length, 2);
	assert.equal(found[0].document.pageContent, 'Bob Stone builds the mobile app in Paris.');
	assert.ok(Math.abs(found[0].score - 1) < 1e-6, `the same text scores 1 (${found[0].score})`);
	assert.ok(found[1].score < found[0].score);
	assert.deepEqual(
		state.ai.calls.map((call) => [call.endpoint, call.inputs]),
		[
			['embeddings', 2],
			['embeddings', 1],
			['embeddings', 1],
		],
	);
};

module.exports = { checks };

// A form's photo, stored as the form builder stores it (a list column), on the CDN-like host.
const FORM_PHOTO = Buffer.concat([SAMPLE_PHOTO, Buffer.from(' damaged chair')]);
let filesSandbox;

checks['files.workflow.json'] = {
	setup(sandbox) {
		filesSandbox = sandbox;
		require('../../sandbox/media/formEntries').addFormEntry(sandbox, {
			dataSourceId: 100,
			data: { Name: 'Damaged chair' },
			files: [{ column: 'Photo', name: 'chair.png', contentType: 'image/png', data: FORM_PHOTO }],
		});
	},
	check: ({ run, state, tokens }) => {
		assert.equal(run.status, 'success');
		const sandbox = filesSandbox;
		// The entry's photo came from the CDN-like host, without the token, into n8n's storage.
		const [entry] = json(run, 'Read Form Entry');
		assert.equal(entry.data.Name, 'Damaged chair');
		assert.deepEqual(
			entry.fileDownloads.map((line) => [line.column, line.status, line.binaryProperty]),
			[['Photo', 'downloaded', 'Photo_0']],
		);
		assert.ok(entry.data.Photo[0].startsWith(`${sandbox.cdnUrl}/apps/11/`));
		assert.ok(run.nodes['Read Form Entry'].items[0].binary.Photo_0.id, 'stored by id, on disk');
		const [photo] = json(run, 'Photo Read');
		assert.equal(photo.base64, FORM_PHOTO.toString('base64'), 'the photo bytes arrive unchanged');
		assert.equal(photo.mimeType, 'image/png');
		assert.equal(photo.storedById, true);

		// The photo into the media library: one multipart upload of those bytes.
		const upload = onlyRequest(run, 'Upload To Library', 'POST', '/v1/media/files');
		assert.deepEqual(upload.query, { appId: '11' });
		const part = onlyFile(upload);
		assert.equal(part.fileName, 'damaged-chair.png');
		assert.ok(Buffer.from(part.data).equals(FORM_PHOTO));
		const [uploaded] = json(run, 'Upload To Library');
		assert.ok(state.media.get(uploaded.id).data.equals(FORM_PHOTO), 'the library stored the photo');

		// Downloaded back: metadata from the API, bytes from the CDN-like host.
		const [back] = json(run, 'Downloaded Read');
		assert.deepEqual(back, {
			base64: FORM_PHOTO.toString('base64'),
			fileName: 'damaged-chair.png',
			mimeType: 'image/png',
			storedById: true,
		});
		assert.equal(sandbox.cdnRequests.length, 2);
		for (const request of sandbox.cdnRequests) {
			assert.equal(request.headers['auth-token'], undefined, 'no token on the CDN');
			assert.ok(
				!JSON.stringify(request).includes(tokens.app) &&
					!JSON.stringify(request).includes(tokens.org),
			);
		}
	},
};

checks['form-photo-email.json'] = {
	setup(sandbox) {
		require('../../sandbox/media/formEntries').addFormEntry(sandbox, {
			dataSourceId: 100,
			data: { Name: 'Ivy Park', Email: 'ivy@example.com' },
			files: [{ column: 'Photo', name: 'leak.png', contentType: 'image/png', data: FORM_PHOTO }],
		});
	},
	check: ({ run, state }) => {
		// The five staff entries have no photo: only the form's entry is emailed, with its photo.
		assert.equal(state.sent.emails.length, 1);
		const [email] = state.sent.emails;
		assert.deepEqual(email.to, [{ email: 'facilities@example.com', type: 'to' }]);
		assert.equal(email.subject, 'New photo from Ivy Park');
		assert.equal(email.attachments.length, 1);
		assert.equal(
			Buffer.from(email.attachments[0].content, 'base64').toString('base64'),
			FORM_PHOTO.toString('base64'),
		);
		assert.match(email.attachments[0].type, /^image\/png/);
		assertExecutionsSucceeded(run);
	},
};
