'use strict';
// The browser tier's scenarios of issue 44's pickers and short credential: the credential form
// with its Advanced Settings, and a data source picked from its list, then a column picked from
// the data source's columns, and the run that uses them.

const assert = require('assert/strict');

const { CREDENTIAL } = require('../../scripts/lib/editorSession');
const { WAIT_MS } = require('../../scripts/lib/browserPage');

const credentials = { flipletApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

/** A Sync whose data source and key column the scenario picks: both are empty here. */
const SYNC = {
	name: 'Browser tier: sync a row into a picked data source',
	nodes: [
		{
			name: 'Run',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			name: 'Row',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [240, 0],
			parameters: {
				jsCode:
					"return [{ json: { Email: 'alice@example.com', Name: 'Alice Martin', Department: 'Sales' } }];",
			},
		},
		{
			name: 'Sync Staff',
			type: 'n8n-nodes-fliplet.fliplet',
			typeVersion: 1,
			position: [480, 0],
			credentials,
			parameters: {
				resource: 'entry',
				operation: 'sync',
				dataSource: { __rl: true, mode: 'list', value: '' },
			},
		},
	],
	connections: {
		Run: { main: [[{ node: 'Row', type: 'main', index: 0 }]] },
		Row: { main: [[{ node: 'Sync Staff', type: 'main', index: 0 }]] },
	},
};

async function sandboxRequests(t) {
	const response = await fetch(`${t.sandboxUrl}/__sandbox/requests`);
	return (await response.json()).requests;
}

/**
 * Opens a select and waits for its option `text` to show. The editor may re-render the field while
 * its options load, closing the list it just opened: as a person would, open it again.
 */
async function openSelect(t, field, options, text) {
	for (let attempt = 1; ; attempt++) {
		await t.click(field);
		try {
			await t.page.waitForFunction(
				(selector, wanted) =>
					[...globalThis.document.querySelectorAll(selector)].some(
						(element) => element.offsetParent !== null && element.innerText.trim() === wanted,
					),
				{ timeout: 10_000, polling: 250 },
				options,
				text,
			);
			return;
		} catch (error) {
			if (attempt === 3) throw error;
		}
	}
}

/** The Fliplet API credential's fields (n8n adds fields of its own to every credential form). */
const CREDENTIAL_FIELDS = [
	'accessToken',
	'region',
	'baseUrl',
	'fileHosts',
	'aiPlan',
	'advancedSettings',
	'processes',
	'timeout',
	'communicateTimeout',
	'aiTimeout',
];

/** The credential's fields the open form shows, in order. */
async function shownCredentialFields(t) {
	const ids = await t.page.$$eval('[data-test-id^="parameter-input-"]', (elements) =>
		elements
			.filter((element) => element.offsetParent !== null)
			.map((element) => element.getAttribute('data-test-id').replace('parameter-input-', '')),
	);
	return [...new Set(ids)].filter((id) => CREDENTIAL_FIELDS.includes(id));
}

const pickerScenarios = [
	{
		name: 'credential form: token and region, the rest (the plan first) under Advanced Settings',
		async run(t) {
			await t.goto(`${t.editorUrl}/home/credentials`);
			await t.clickText(t.testId('resources-list-item'), CREDENTIAL.name);
			await t.find(t.testId('credential-edit-dialog'));
			await t.find(t.testId('parameter-input-advancedSettings'));
			// The sandbox's credential has a custom base URL, so its two fields show too.
			assert.deepEqual(await shownCredentialFields(t), [
				'accessToken',
				'region',
				'baseUrl',
				'fileHosts',
				'advancedSettings',
			]);
			await t.shot('credential-form-short');
			await t.click(`${t.testId('parameter-input-advancedSettings')} .el-switch`);
			await t.find(t.testId('parameter-input-processes'));
			assert.deepEqual((await shownCredentialFields(t)).slice(-6), [
				'advancedSettings',
				'aiPlan',
				'processes',
				'timeout',
				'communicateTimeout',
				'aiTimeout',
			]);
			await t.shot('credential-form-advanced');
			await t.click(`${t.testId('parameter-input-advancedSettings')} .el-switch`);
			await t.page.waitForSelector(t.testId('parameter-input-processes'), { hidden: true });
			// Saved as it was (n8n tests it on save).
			await t.click(`${t.testId('credential-save-button')} button`);
			await t.waitForText(t.testId('credential-save-button'), 'Saved');
			await t.waitForText(t.testId('credential-edit-dialog'), 'Connection tested successfully');
			await t.page.keyboard.press('Escape');
			// n8n may still ask whether to throw away changes (the values the switch showed are
			// kept in its form, not saved): there are none to keep.
			const outcome = await t.page.waitForFunction(
				(dialog) => {
					const visible = (element) => element && element.offsetParent !== null;
					if (!visible(globalThis.document.querySelector(dialog))) return 'closed';
					const buttons = [...globalThis.document.querySelectorAll('button')];
					return buttons.some((b) => visible(b) && b.innerText.trim() === 'Keep Editing')
						? 'asked'
						: false;
				},
				{ timeout: WAIT_MS, polling: 250 },
				t.testId('credential-edit-dialog'),
			);
			if ((await outcome.jsonValue()) === 'asked') {
				await t.clickText('button', 'Close');
				await t.page.waitForSelector(t.testId('credential-edit-dialog'), { hidden: true });
			}
		},
	},
	{
		name: 'pickers: pick a data source from the list, then a key column from the picker, run it',
		async run(t) {
			const created = await t.rest.request('POST', '/rest/workflows', {
				...SYNC,
				settings: {},
				active: false,
			});
			const workflow = created.data ?? created;
			await t.goto(`${t.editorUrl}/workflow/${workflow.id}`);
			await t.find(t.testId('canvas-node'));
			const handle = await t.findText(t.testId('canvas-node'), 'Sync Staff');
			await handle.click({ count: 2 });
			await t.find(t.testId('ndv'));
			await t.waitForValue(t.testId('node-credentials-select'), CREDENTIAL.name);

			const seen = (await sandboxRequests(t)).length;
			await t.click(`${t.testId('resource-locator-dataSource')} ${t.testId('rlc-input')}`);
			await t.clickText(t.testId('rlc-item'), 'Staff (Staff Directory, 100)');
			await t.shot('picker-data-source-picked');
			// The list came from the apps and the token's own list, asked together.
			const listed = (await sandboxRequests(t))
				.slice(seen)
				.filter((r) => r.path === '/v1/apps' || r.path === '/v1/data-sources');
			assert.ok(
				listed.some((r) => r.path === '/v1/data-sources' && !r.query.appId),
				'the token-wide list',
			);
			assert.ok(
				listed.every((r) => !r.query.appId),
				'no list per app',
			);

			// Key Columns lists the picked data source's columns.
			const options = '.el-select-dropdown__item';
			await openSelect(t, t.testId('parameter-input-keyColumns'), options, 'Email');
			for (const column of ['Name', 'Email', 'Department', 'Age']) {
				await t.waitForText(options, column);
			}
			await t.shot('picker-key-columns-open');
			await t.clickText(options, 'Email');
			await t.page.keyboard.press('Tab');
			await t.waitForText(t.testId('parameter-input-keyColumns'), 'Email');
			await t.shot('picker-key-column-picked');

			const before = (await sandboxRequests(t)).length;
			await t.click(t.testId('node-execute-button'));
			await t.waitForText(t.testId('output-panel'), /unchanged/);
			await t.shot('picker-sync-output');
			const queries = (await sandboxRequests(t))
				.slice(before)
				.filter((r) => r.path === '/v1/data-sources/100/data/query');
			assert.ok(queries.length > 0, 'Sync read the picked data source');
			assert.deepEqual(
				queries[0].body.where.$filters.map((filter) => filter.column),
				['Email'],
				'by the picked key column',
			);
			await t.page.keyboard.press('Escape');
			await t.page.waitForSelector(t.testId('ndv'), { hidden: true, timeout: WAIT_MS });
		},
	},
];

module.exports = { pickerScenarios, shownCredentialFields };
