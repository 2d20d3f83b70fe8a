'use strict';
// The browser tier's scenarios, in order (later ones rely on the login of the first, and the
// publish scenario comes last because its trigger keeps polling). Each one does what a person
// does in the editor and asserts on what the page shows; the sandbox's record of requests
// confirms what was sent.

const assert = require('assert/strict');

const { TOKENS } = require('../../sandbox');
const { OWNER } = require('../../scripts/lib/editorServer');
const { CREDENTIAL, LANDING_PATH, landingUrl } = require('../../scripts/lib/editorSession');
const { withoutOrganizationLookup } = require('../e2e/organizationLookup');
const { testWorkflows } = require('./workflows');
const { pickerScenarios } = require('./pickerScenarios');
const { WAIT_MS } = require('../../scripts/lib/browserPage');
const { N8N_MAJOR } = require('../../scripts/install-n8n');

const POLL_MS = 500;
/** A poll every minute: the first one may come up to a minute after publishing. */
const TRIGGER_FIRES_WITHIN_MS = 150_000;

async function sandboxGet(t, route) {
	const response = await fetch(`${t.sandboxUrl}${route}`);
	return response.json();
}

/** What the sandbox received from now on: call the returned function to read it. */
async function sandboxRequestsFromNow(t) {
	const { requests } = await sandboxGet(t, '/__sandbox/requests');
	const seen = requests.length;
	return async () => (await sandboxGet(t, '/__sandbox/requests')).requests.slice(seen);
}

/**
 * Asks `check` every `everyMs` until it says true; after `withinMs`, fails with the message
 * `failure` gives (it may ask the sandbox what happened).
 */
async function until(check, { withinMs, everyMs }, failure) {
	const deadline = Date.now() + withinMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(await failure());
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}

async function openCredential(t) {
	await t.goto(`${t.editorUrl}/home/credentials`);
	await t.clickText(t.testId('resources-list-item'), CREDENTIAL.name);
	await t.find(t.testId('credential-edit-dialog'));
}

/**
 * Types a token into the open credential and saves it; n8n tests it on save. n8n only enables
 * Save once its form has taken the edit, so wait for that rather than for the field's text.
 */
async function saveToken(t, token) {
	const input = `${t.testId('parameter-input-accessToken')} input`;
	const save = `${t.testId('credential-save-button')} button`;
	await t.typeInto(input, token);
	await t.page.keyboard.press('Tab');
	await t.page.waitForFunction(
		(sel, inputSel, wanted) =>
			globalThis.document.querySelector(inputSel)?.value === wanted &&
			!globalThis.document.querySelector(sel)?.disabled,
		{ polling: 100, timeout: WAIT_MS },
		save,
		input,
		token,
	);
	const tested = t.page.waitForResponse((response) =>
		response.url().endsWith('/rest/credentials/test'),
	);
	await t.page.click(save);
	await tested;
}

async function closeDialog(t, testId) {
	await t.page.keyboard.press('Escape');
	await t.page.waitForSelector(t.testId(testId), { hidden: true });
}

async function openWorkflow(t, id) {
	await t.goto(`${t.editorUrl}/workflow/${id}`);
	await t.find(t.testId('canvas-node'));
}

/** Types into the resource mapper's field for a column (found beside its remove button). */
async function fillMapperField(t, column, text) {
	await t.find(t.testId(`remove-field-button-${column}`));
	const inputOf = async () => {
		const handle = await t.page.evaluateHandle((testId) => {
			let row = globalThis.document.querySelector(`[data-test-id="${testId}"]`);
			while (row && !row.querySelector('input, textarea')) row = row.parentElement;
			return row?.querySelector('input, textarea');
		}, `remove-field-button-${column}`);
		const input = handle.asElement();
		assert.ok(input, `no input for the column ${column}`);
		return input;
	};
	// The editor can re-render the field after the first keystroke (a busy machine shows it), and
	// the keys after it are lost: as a person would, look at the field and type it again.
	let value;
	for (let attempt = 0; attempt < 3 && value !== text; attempt++) {
		const input = await inputOf();
		await input.click({ count: 3 });
		await input.type(text);
		await new Promise((resolve) => setTimeout(resolve, 300));
		value = await (await inputOf()).evaluate((element) => element.value);
	}
	assert.equal(value, text, `the ${column} field holds what was typed`);
}

/** The canvas node's title and subtitle lines, by node name. */
async function canvasNode(t, name) {
	const nodes = await t.page.$$eval(t.testId('canvas-node'), (elements) =>
		elements.map((element) => element.innerText.split('\n').map((line) => line.trim())),
	);
	const node = nodes.find((lines) => lines.includes(name));
	assert.ok(node, `no canvas node named "${name}" (nodes: ${JSON.stringify(nodes)})`);
	return node;
}

async function openNode(t, name) {
	const handle = await t.page.evaluateHandle(
		(selector, wanted) =>
			[...globalThis.document.querySelectorAll(selector)].find((element) =>
				element.innerText.split('\n').some((line) => line.trim() === wanted),
			),
		t.testId('canvas-node'),
		name,
	);
	await handle.asElement().click({ count: 2 });
	await t.find(t.testId('ndv'));
}

/** Runs the open workflow with its "Execute workflow" button; resolves when every node ran. */
async function executeWorkflow(t, nodeCount) {
	await t.click(t.testId('execute-workflow-button'));
	await t.page.waitForFunction(
		(count) =>
			globalThis.document.querySelectorAll('[data-test-id="canvas-node-status-success"]').length >=
				count || globalThis.document.querySelector('[data-test-id="canvas-node-status-error"]'),
		{ timeout: WAIT_MS, polling: POLL_MS },
		nodeCount,
	);
	const failed = await t.page.$$eval(
		`${t.testId('canvas-node')}:has(${t.testId('canvas-node-status-error')})`,
		(elements) => elements.map((element) => element.innerText.replace(/\n/g, ' / ')),
	);
	assert.deepEqual(failed, [], 'no node failed');
}

const workflowNodes = (workflow) =>
	workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');

/** A subtitle that shows n8n's internal values ("getMany: entry") instead of what was picked. */
const INTERNAL_SUBTITLE = /^[a-z]+[A-Za-z]*: [a-z]+[A-Za-z]*$|^[a-z]+[A-Z][A-Za-z]*$/;

/** What each example's sticky note promises for "Execute workflow", checked on the sandbox. */
const EXAMPLE_CHECKS = {
	'sync-spreadsheet.json': {
		sticky: 'one for the updated rows and one for the new rows',
		output: { node: 'Create or Update Staff', text: /insert/ },
		check(requests) {
			const commits = requests.filter((r) => r.path === '/v1/data-sources/100/commit');
			assert.equal(commits.length, 2, 'one commit for the updates, one for the new rows');
			// The two commits travel together: either may reach the sandbox first.
			const entryLists = commits.map((c) => c.body.entries);
			const updates = entryLists.find((entries) => entries.every((entry) => 'id' in entry));
			const inserts = entryLists.find((entries) => entries.every((entry) => !('id' in entry)));
			assert.ok(updates && inserts, 'one commit of updates by id, one of new rows');
			assert.equal(updates.length, 1, "Alice's row is the one update");
			assert.deepEqual(updates[0].data, { Department: 'Marketing' }, 'it sends its changed cell');
			assert.deepEqual(
				inserts.map((e) => e.data.Email),
				['frank@example.com'],
			);
		},
	},
	'new-entry-email.json': {
		publish: true,
		sticky: 'tries it on the latest entry',
		check(requests) {
			assert.equal(requests.filter((r) => r.path === '/v1/communicate/email').length, 1);
		},
	},
	'new-entry-sms.json': {
		publish: true,
		sticky: 'tries it on the latest entry',
		check(requests) {
			assert.equal(requests.filter((r) => r.path === '/v1/communicate/sms').length, 1);
		},
	},
	'scheduled-notification.json': {
		publish: true,
		sticky: 'publishes one now',
		check(requests) {
			const created = requests.filter((r) => r.path === '/v1/apps/11/notifications');
			assert.equal(created.length, 1);
			assert.equal(created[0].body.status, 'published');
		},
	},
	...(N8N_MAJOR >= 2
		? {
				'ask-your-data.json': {
					sticky: 'asks the question in',
					output: { node: 'AI Agent', text: /Alice Martin/ },
					check(requests) {
						assert.deepEqual(
							requests.map((r) => r.path),
							[
								'/v1/apps/11/ai/completions',
								'/v1/data-sources/100/data/query',
								'/v1/apps/11/ai/completions',
							],
							'model call with the tool, Get Many, model call with its result',
						);
					},
				},
			}
		: {}),
	'ai-summary-email.json': {
		publish: true,
		sticky: 'tries it on the latest entry',
		check(requests) {
			assert.equal(requests.filter((r) => /\/ai\/completions$/.test(r.path)).length, 1);
			assert.equal(requests.filter((r) => r.path === '/v1/communicate/email').length, 1);
		},
	},
};

function exampleScenarios() {
	return Object.entries(EXAMPLE_CHECKS).map(([file, expected]) => ({
		name: `example ${file}: open it, read its note, run it`,
		async run(t) {
			const example = t.examples.find(({ key }) => key === file);
			assert.ok(example, `${file} was imported`);
			await openWorkflow(t, example.id);
			await t.waitForText(t.testId('sticky'), expected.sticky);
			if (expected.publish) await t.waitForText(t.testId('sticky'), /Publish.*n8n 1\.x.*Active/);
			for (const node of workflowNodes(example.workflow)) {
				const [, subtitle] = await canvasNode(t, node.name);
				if (node.type.startsWith('n8n-nodes-fliplet.')) {
					assert.doesNotMatch(subtitle ?? '', INTERNAL_SUBTITLE, `${node.name}'s subtitle`);
				}
			}
			await t.shot(`example-${file.replace('.json', '')}`);
			const sent = await sandboxRequestsFromNow(t);
			await executeWorkflow(t, workflowNodes(example.workflow).length);
			await t.shot(`example-${file.replace('.json', '')}-run`);
			if (expected.output) {
				await openNode(t, expected.output.node);
				await t.waitForText(t.testId('output-panel'), expected.output.text);
				await t.shot(`example-${file.replace('.json', '')}-output`);
				await closeDialog(t, 'ndv');
			}
			expected.check(await sent());
		},
	}));
}

/** The Chat Model needs n8n 2.x: on 1.x the scenario is left out. */
const chatModelScenarios =
	N8N_MAJOR < 2
		? []
		: [
				{
					name: 'chat model: add the Fliplet Chat Model under an AI Agent from the nodes panel, run it',
					async run(t) {
						const { agent } = await testWorkflows(t);
						await openWorkflow(t, agent.id);
						await t.click(
							`[data-handleid="inputs/ai_languageModel/0"] ${t.testId('canvas-handle-plus')}`,
						);
						await (await t.find(t.testId('node-creator-search-bar'))).type('Fliplet');
						await t.waitForText(t.testId('node-creator-item-name'), 'Fliplet Chat Model');
						await t.shot('chat-model-in-panel');
						await t.clickText(t.testId('node-creator-item-name'), 'Fliplet Chat Model');
						// An installed community node shows its details first.
						await t.clickText(`${t.testId('node-creator')} button`, 'Add to workflow');
						await t.find(t.testId('ndv'));
						await t.waitForValue(t.testId('node-credentials-select'), CREDENTIAL.name);
						await t.click(`${t.testId('resource-locator-app')} ${t.testId('rlc-input')}`);
						await t.clickText(t.testId('rlc-item'), 'Staff Directory (11)');
						await t.shot('chat-model-app-picked');
						await closeDialog(t, 'ndv');
						await canvasNode(t, 'Fliplet Chat Model');
						const sent = await sandboxRequestsFromNow(t);
						await executeWorkflow(t, 4);
						await t.shot('chat-model-agent-run');
						await openNode(t, 'AI Agent');
						await t.waitForText(t.testId('output-panel'), 'Bob Stone');
						await t.shot('chat-model-agent-output');
						await closeDialog(t, 'ndv');
						const requests = withoutOrganizationLookup(await sent());
						assert.deepEqual(
							requests.map((r) => r.path),
							[
								'/v1/apps/11/ai/completions',
								'/v1/data-sources/100/data/query',
								'/v1/apps/11/ai/completions',
							],
						);
						assert.deepEqual(
							requests[0].body.tools.map((tool) => tool.function.name),
							['Staff_Directory'],
						);
						assert.equal(requests[0].body.model, 'gpt-4o-mini');
					},
				},
			];

const scenarios = [
	{
		name: 'log in and land on the examples',
		async run(t) {
			await t.goto(landingUrl(t.editorUrl));
			await t.find(t.testId('signin-form'));
			await t.shot('signin');
			await t.typeInto('input[name="emailOrLdapLoginId"]', OWNER.email);
			await t.typeInto('input[type="password"]', OWNER.password);
			await t.page.keyboard.press('Enter');
			await t.find(t.testId('workflow-card-name'));
			for (const { name } of t.examples) {
				await t.waitForText(t.testId('workflow-card-name'), name);
			}
			assert.equal(new URL(t.page.url()).pathname, LANDING_PATH, 'the workflows list first');
			await t.shot('examples-after-login');
		},
	},
	{
		name: 'credential: test a good token, then a bad one',
		async run(t) {
			await openCredential(t);
			await t.waitForText(t.testId('credential-edit-dialog'), 'Connection tested successfully');
			await t.shot('credential-good-token');
			await saveToken(t, 'eu--not-a-real-token');
			await t.waitForText(
				t.testId('credential-edit-dialog'),
				'Couldn’t connect with these settings',
			);
			await t.clickText(`${t.testId('credential-edit-dialog')} *`, 'More details');
			await t.waitForText(t.testId('credential-edit-dialog'), /token was refused by/i);
			await t.shot('credential-bad-token');
			await saveToken(t, TOKENS.org);
			await t.waitForText(t.testId('credential-edit-dialog'), 'Connection tested successfully');
			await closeDialog(t, 'credential-edit-dialog');
		},
	},
	{
		name: 'node panel: search "Fliplet", add Get Many, pick a data source, run it',
		async run(t) {
			await t.goto(`${t.editorUrl}/workflow/new`);
			await t.click(t.testId('canvas-add-button'));
			await (await t.find(t.testId('node-creator-search-bar'))).type('Fliplet');
			await t.waitForText(t.testId('node-creator-item-name'), 'Fliplet');
			const [triggerDescription] = await t.texts(t.testId('node-creator-item-description'));
			assert.match(triggerDescription, /starts a workflow/i, 'the trigger panel: the trigger');
			await t.shot('node-panel-triggers');
			await t.clickText(t.testId('node-creator-item-name'), 'Fliplet');
			await t.clickText(`${t.testId('node-creator')} *`, 'Actions (');
			await t.clickText(t.testId('item-iterator-item'), 'Get many entries');
			await t.find(t.testId('ndv'));
			await t.waitForValue(t.testId('node-credentials-select'), CREDENTIAL.name);
			await t.click(`${t.testId('resource-locator-dataSource')} ${t.testId('rlc-input')}`);
			await t.clickText(t.testId('rlc-item'), 'Staff (Staff Directory, 100)');
			await t.shot('data-source-picked');
			await t.click(t.testId('node-execute-button'));
			await t.waitForText(t.testId('ndv-items-count'), '5 items');
			await t.waitForText(t.testId('output-panel'), 'Alice Martin');
			await t.shot('get-many-output');
			await closeDialog(t, 'ndv');
			const [, subtitle] = await canvasNode(t, 'Get many entries');
			assert.doesNotMatch(subtitle ?? '', INTERNAL_SUBTITLE, 'the subtitle says what was picked');
			assert.match(subtitle ?? '', /get many/i);

			// The actions panel (a next step) shows the action node's own description.
			await t.click(t.testId('node-creator-plus-button'));
			await (await t.find(t.testId('node-creator-search-bar'))).type('Fliplet');
			await t.waitForText(t.testId('node-creator-item-name'), 'Fliplet');
			const [actionDescription] = await t.texts(t.testId('node-creator-item-description'));
			await t.shot('node-panel-actions');
			assert.match(
				actionDescription,
				/^Work with Fliplet apps/,
				'the action node is described first',
			);
			await t.page.keyboard.press('Escape');
		},
	},
	{
		name: 'insert through the resource mapper: a number column goes as a number',
		async run(t) {
			const { insert } = await testWorkflows(t);
			await openWorkflow(t, insert.id);
			await openNode(t, 'Insert Staff Entry');
			await t.find(t.testId('resource-mapper-container'));
			await fillMapperField(t, 'Name', 'Gail Force');
			await fillMapperField(t, 'Age', '40');
			await t.page.keyboard.press('Tab');
			await t.shot('resource-mapper-filled');
			const sent = await sandboxRequestsFromNow(t);
			await t.click(t.testId('node-execute-button'));
			await t.waitForText(t.testId('output-panel'), 'Gail Force');
			await t.shot('insert-output');
			const inserts = (await sent()).filter(
				(request) => request.method === 'PUT' && request.path === '/v1/data-sources/100/data',
			);
			assert.equal(inserts.length, 1, 'one insert');
			assert.equal(inserts[0].body.Age, 40, 'Age typed as 40 is sent as the number 40');
			await closeDialog(t, 'ndv');
		},
	},
	{
		name: 'send an email with a binary attachment',
		async run(t) {
			const { email } = await testWorkflows(t);
			await openWorkflow(t, email.id);
			const sent = await sandboxRequestsFromNow(t);
			await executeWorkflow(t, workflowNodes(email).length);
			await t.shot('email-with-attachment-run');
			await openNode(t, 'Send Report');
			await t.waitForText(t.testId('output-panel'), /1 item/);
			await t.shot('email-output');
			await closeDialog(t, 'ndv');
			const [request] = (await sent()).filter((r) => r.path === '/v1/communicate/email');
			assert.ok(request, 'the email was sent');
			assert.deepEqual(
				request.body.attachments.map(({ name, type }) => [name, type]),
				[['report.csv', 'text/csv']],
			);
			assert.equal(
				Buffer.from(request.body.attachments[0].content, 'base64').toString(),
				'Name,Hours\nAnn,7\n',
			);
		},
	},
	...chatModelScenarios,
	...pickerScenarios,
	...exampleScenarios(),
	{
		name: 'publish the trigger workflow and see it fire',
		async run(t) {
			const example = t.examples.find(({ key }) => key === 'new-entry-email.json');
			await openWorkflow(t, example.id);
			await t.waitForText(t.testId('workflow-open-publish-modal-button'), 'Publish');
			await t.click(t.testId('workflow-open-publish-modal-button'));
			const sinceClick = await sandboxRequestsFromNow(t);
			await t.click(t.testId('workflow-publish-button'));
			await t.page.waitForFunction(
				(selector) =>
					!/^\s*Publish\s*$/.test(globalThis.document.querySelector(selector)?.innerText),
				{ timeout: WAIT_MS, polling: POLL_MS },
				t.testId('workflow-open-publish-modal-button'),
			);
			await t.shot('trigger-published');
			// Publishing polls once to take the trigger's place: an entry added before that poll is
			// history, as for any polling trigger. A person adds one once the workflow is live.
			const readsSource = (request) =>
				request.method !== 'PUT' && request.path.startsWith('/v1/data-sources/100/data');
			await until(
				async () => (await sinceClick()).some(readsSource),
				{ withinMs: WAIT_MS, everyMs: POLL_MS },
				async () => 'Publishing did not poll the data source',
			);
			// Someone adds an entry through the API.
			const added = await fetch(`${t.sandboxUrl}/v1/data-sources/100/data`, {
				method: 'PUT',
				headers: { 'content-type': 'application/json', 'auth-token': TOKENS.org },
				body: JSON.stringify({ Name: 'Hana Lee', Email: 'hana@example.com', Department: 'Ops' }),
			});
			assert.equal(added.status, 200);
			// The trigger polls every minute: wait for its email, then look at the executions list.
			await until(
				async () =>
					(await sandboxGet(t, '/__sandbox/state')).sent.emails.some(
						(mail) => mail.to[0].email === 'hana@example.com',
					),
				{ withinMs: TRIGGER_FIRES_WITHIN_MS, everyMs: 1000 },
				async () => {
					const asked = (await sinceClick()).map(
						(r) => `${new Date(r.at).toISOString()} ${r.method} ${r.path} ${r.status}`,
					);
					return `The published trigger did not fire. Requests since Publish:\n${asked.join('\n')}`;
				},
			);
			await t.goto(`${t.editorUrl}/workflow/${example.id}/executions`);
			// The manual run of the example scenario, and now the published trigger's run.
			await t.page.waitForFunction(
				(selector) =>
					(globalThis.document.querySelector(selector)?.innerText.match(/Succeeded/g) ?? [])
						.length >= 2,
				{ timeout: WAIT_MS, polling: POLL_MS },
				t.testId('executions-sidebar'),
			);
			await t.shot('trigger-fired-execution');
		},
	},
];

/** Steps other scenario files (test/browser/*.scenarios.js) share. */
const steps = {
	canvasNode,
	closeDialog,
	executeWorkflow,
	openNode,
	openWorkflow,
	sandboxRequestsFromNow,
};

module.exports = { scenarios, steps };
