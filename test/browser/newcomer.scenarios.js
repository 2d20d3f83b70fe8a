'use strict';
// The newcomer's path in the editor: someone who knows n8n but not this package looks for an
// upsert under n8n's words, starts the Fliplet Trigger with the app token the README recommends,
// and tries a Mirror that would delete most of a data source. Each step asserts on what the page
// shows; the sandbox's record of requests confirms what was (not) sent.

const assert = require('assert/strict');
const path = require('path');

const { TOKENS } = require('../../sandbox');
const { REPO } = require('../../scripts/lib/n8nInstance');
const { steps } = require('./scenarios');
const { chain, flipletNode, manualTrigger, pickedDataSource } = require('./workflows');

const { closeDialog, openWorkflow, sandboxRequestsFromNow } = steps;

const dataOf = (answer) => answer?.data ?? answer;

/** The Entry operations of the built Fliplet node, as the editor lists them (value → action). */
function entryActions() {
	const { Fliplet } = require(path.join(REPO, 'dist', 'nodes', 'Fliplet', 'Fliplet.node.js'));
	const operation = new Fliplet().description.properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.includes('entry'),
	);
	return new Map(operation.options.map((option) => [option.value, option.action]));
}

/** Types a search into the open node panel, replacing what was there. */
async function searchPanel(t, words) {
	const search = t.testId('node-creator-search-bar');
	// The panel slides in: click once it holds still, as a person would.
	await t.click(search);
	await t.page.keyboard.down('Control');
	await t.page.keyboard.press('KeyA');
	await t.page.keyboard.up('Control');
	await t.page.keyboard.press('Backspace');
	await t.page.keyboard.type(words);
}

/** A workflow that holds only a Manual Trigger, so the panel opens on the actions of a next step. */
async function emptyWorkflow(t, name) {
	return dataOf(
		await t.rest.request('POST', '/rest/workflows', {
			name,
			nodes: [manualTrigger],
			connections: {},
			settings: {},
			active: false,
		}),
	);
}

const panelSearch = {
	name: 'newcomer: the node panel finds the Fliplet action for "upsert" and "create or update"',
	async run(t) {
		const workflow = await emptyWorkflow(t, 'Browser tier: the newcomer looks for an upsert');
		await openWorkflow(t, workflow.id);
		await t.click(t.testId('node-creator-plus-button'));
		for (const words of ['upsert', 'create or update']) {
			await searchPanel(t, words);
			await t.waitForText(t.testId('node-creator-item-name'), /^Fliplet$/);
			await t.shot(`newcomer-search-${words.replace(/ /g, '-')}`);
			if (words === 'create or update') await t.picture('node-panel', t.testId('node-creator'));
		}
		// The action itself: Create or Update once the operation exists, and Create under its name.
		const actions = entryActions();
		await t.clickText(t.testId('node-creator-item-name'), 'Fliplet');
		// After a search, the node's details open with its actions unfolded.
		await t.find(t.testId('item-iterator-item'));
		const listed = await t.texts(t.testId('item-iterator-item'));
		const wanted = [
			actions.get('insert'),
			...(actions.has('upsert') ? [actions.get('upsert')] : []),
		];
		for (const action of wanted) {
			assert.ok(
				listed.some((text) => text.includes(action)),
				`"${action}" is listed (the panel shows: ${listed.join(' | ').slice(0, 600)})`,
			);
		}
		assert.equal(actions.get('insert'), 'Create an entry');
		await t.shot('newcomer-fliplet-actions');
		await t.page.keyboard.press('Escape');
	},
};

/**
 * A Fliplet Trigger as it comes when added without picking an event (dragged in, or with
 * "Add to workflow"): only the data source chosen, on a credential holding an app token.
 */
function triggerWorkflow(credential) {
	return {
		name: 'Browser tier: a fresh Fliplet Trigger on an app token',
		nodes: [
			{
				name: 'Fliplet Trigger',
				type: 'n8n-nodes-fliplet.flipletTrigger',
				typeVersion: 1,
				position: [0, 0],
				credentials: { flipletApi: { id: credential.id, name: credential.name } },
				parameters: {
					dataSource: pickedDataSource('100', 'Staff'),
				},
			},
		],
		connections: {},
		settings: {},
		active: false,
	};
}

const triggerDefault = {
	name: 'newcomer: the Fliplet Trigger starts on an event the app token runs, Fetch Test Event works',
	async run(t) {
		// In the node panel the trigger lists its events, the data source's among them.
		await t.goto(`${t.editorUrl}/workflow/new`);
		await t.click(t.testId('canvas-add-button'));
		await searchPanel(t, 'Fliplet');
		await t.clickText(t.testId('node-creator-item-name'), 'Fliplet');
		await t.waitForText(`${t.testId('node-creator')} *`, 'On new data source entry');
		await t.shot('newcomer-trigger-panel');
		await t.page.keyboard.press('Escape');

		const credential = dataOf(
			await t.rest.request('POST', '/rest/credentials', {
				name: 'Fliplet App Token',
				type: 'flipletApi',
				data: {
					accessToken: TOKENS.app,
					region: 'custom',
					baseUrl: t.sandboxUrl,
					fileHosts: t.cdnUrl,
				},
			}),
		);
		const workflow = dataOf(
			await t.rest.request('POST', '/rest/workflows', triggerWorkflow(credential)),
		);
		await openWorkflow(t, workflow.id);
		await steps.openNode(t, 'Fliplet Trigger');
		await t.waitForValue(t.testId('parameter-input-event'), 'New Data Source Entry');
		await t.waitForValue(t.testId('node-credentials-select'), credential.name);
		await t.shot('newcomer-trigger-defaults');
		const sent = await sandboxRequestsFromNow(t);
		await t.click(t.testId('node-execute-button'));
		await t.waitForText(t.testId('output-panel'), /dataSourceId/);
		await t.shot('newcomer-trigger-test-event');
		const reads = (await sent()).filter((r) => r.path.startsWith('/v1/data-sources/100'));
		assert.ok(reads.length > 0, 'the test event was read from the data source');
		assert.ok(
			reads.every((r) => r.headers['auth-token'] === TOKENS.app && r.status < 400),
			`with the app token, and answered: ${reads.map((r) => `${r.path} ${r.status}`).join(', ')}`,
		);
		await closeDialog(t, 'ndv');
	},
};

const MIRROR = {
	name: 'Browser tier: mirror one row into Staff',
	nodes: [
		manualTrigger,
		{
			name: 'One Row',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [240, 0],
			parameters: { jsCode: "return [{ json: { Email: 'alice@example.com' } }];" },
		},
		// Only what a newcomer sets: the data source, the key column and Mirror.
		flipletNode('Mirror Staff', 2, {
			resource: 'entry',
			operation: 'sync',
			dataSource: pickedDataSource('100', 'Staff'),
			keyColumns: 'Email',
			syncMode: 'mirror',
		}),
	],
	connections: chain('Run', 'One Row', 'Mirror Staff'),
};

/** The refusal a newcomer's Mirror meets: most of Staff would go, over the default 50%. */
const REFUSAL =
	/Mirror would delete \d+ of \d+ entries \(\d+(\.\d)?%\); Max Deletes \(% of Entries\) is 50%/;

const mirrorRefused = {
	name: 'newcomer: a Mirror that would delete most of a data source is refused by default',
	async run(t) {
		const workflow = dataOf(
			await t.rest.request('POST', '/rest/workflows', { ...MIRROR, settings: {}, active: false }),
		);
		await openWorkflow(t, workflow.id);
		const sent = await sandboxRequestsFromNow(t);
		await t.click(t.testId('execute-workflow-button'));
		// The node fails; n8n says so in a notification that quotes the error.
		await t.waitForText('body', REFUSAL);
		await t.shot('newcomer-mirror-refused-notification');
		await steps.openNode(t, 'Mirror Staff');
		await t.waitForText(t.testId('ndv'), /Max Deletes \(Entries\)/);
		await t.waitForText(t.testId('output-panel'), REFUSAL);
		await t.shot('newcomer-mirror-refused');
		await closeDialog(t, 'ndv');
		const commits = (await sent()).filter((r) => r.path === '/v1/data-sources/100/commit');
		assert.deepEqual(commits, [], 'nothing was written or deleted');
	},
};

const COPY = {
	name: 'Browser tier: copy an entry with Get Many → Create',
	nodes: [
		manualTrigger,
		flipletNode('Read Department', 1, {
			resource: 'entry',
			operation: 'getMany',
			dataSource: pickedDataSource('101', 'Departments'),
			limit: 1,
		}),
		flipletNode('Copy Department', 2, {
			resource: 'entry',
			operation: 'insert',
			dataSource: pickedDataSource('101', 'Departments'),
			columns: { mappingMode: 'autoMapInputData', value: null },
		}),
	],
	connections: chain('Run', 'Read Department', 'Copy Department'),
};

const entryShapeHint = {
	name: 'newcomer: Get Many → Create with Map Automatically shows how to copy the columns',
	async run(t) {
		const workflow = dataOf(
			await t.rest.request('POST', '/rest/workflows', { ...COPY, settings: {}, active: false }),
		);
		await openWorkflow(t, workflow.id);
		await steps.executeWorkflow(t, COPY.nodes.length);
		await steps.openNode(t, 'Copy Department');
		await t.waitForText(
			t.testId('output-panel'),
			/entries as Get and Get Many output them.*Output to Columns Only/s,
		);
		await t.shot('newcomer-entry-shape-hint');
		await closeDialog(t, 'ndv');
	},
};

module.exports = { scenarios: [panelSearch, triggerDefault, mirrorRefused, entryShapeHint] };
