'use strict';
// Browser tier: Entry → Create or Update of CSV rows in the real editor. A person opens the node,
// picks Email under "Columns to match on" in the column mapper and runs the workflow: one row is
// updated, one left alone, one created, numbers written as numbers. A second run of the same file
// changes nothing and sends no commit.

const assert = require('assert/strict');

const { WAIT_MS } = require('../../scripts/lib/browserPage');
const { steps } = require('./scenarios');
const { chain, credentials, manualTrigger } = require('./workflows');

const { closeDialog, executeWorkflow, openNode, openWorkflow, sandboxRequestsFromNow } = steps;

const NODE = 'Create or Update Staff';
/** Carla's age changes, Dan's row is as stored, Ivy is new: every cell is text, as in any CSV. */
const CSV =
	'Name,Email,Department,Age\\nCarla Diaz,carla@example.com,Sales,46\\nDan Wu,dan@example.com,Support,23\\nIvy Chen,ivy@example.com,Design,29\\n';

const step = (name, type, typeVersion, x, parameters) => ({
	name,
	type,
	typeVersion,
	position: [x, 0],
	parameters,
});

const WORKFLOW = {
	name: 'Browser tier: CSV rows into Staff with Create or Update',
	nodes: [
		manualTrigger,
		step('Sheet', 'n8n-nodes-base.code', 2, 220, {
			jsCode: `return [{ json: { csv: Buffer.from('${CSV}').toString('base64') } }];`,
		}),
		step('CSV File', 'n8n-nodes-base.convertToFile', 1.1, 440, {
			operation: 'toBinary',
			sourceProperty: 'csv',
			options: { fileName: 'staff.csv', mimeType: 'text/csv' },
		}),
		step('Extract from File', 'n8n-nodes-base.extractFromFile', 1, 660, { options: {} }),
		{
			...step(NODE, 'n8n-nodes-fliplet.fliplet', 1, 880, {
				resource: 'entry',
				operation: 'upsert',
				dataSource: { __rl: true, mode: 'list', value: '100', cachedResultName: 'Staff' },
				columns: { mappingMode: 'autoMapInputData', value: null },
			}),
			credentials,
		},
	],
	connections: chain('Run', 'Sheet', 'CSV File', 'Extract from File', NODE),
};

const commitsTo100 = (requests) =>
	requests.filter((r) => r.method === 'POST' && r.path === '/v1/data-sources/100/commit');

const scenarios = [
	{
		name: 'create or update CSV rows matched on Email, then a re-run that changes nothing',
		async run(t) {
			const created = await t.rest.request('POST', '/rest/workflows', {
				...WORKFLOW,
				settings: {},
				active: false,
			});
			await openWorkflow(t, (created.data ?? created).id);
			await openNode(t, NODE);
			// The column mapper lists the data source's columns to match on; a person picks Email.
			const select = t.testId('matching-column-select');
			await t.click(`${select} .el-select`);
			await t.click(t.testId('matching-column-option-Email'));
			await t.waitForText(select, 'Email');
			// Done with the list: the focus leaves it (n8n 1.x's select keeps Escape for itself).
			await t.page.keyboard.press('Tab');
			await t.page.evaluate(() => globalThis.document.activeElement?.blur());
			await t.shot('create-or-update-matching-column');
			await closeDialog(t, 'ndv');

			const first = await sandboxRequestsFromNow(t);
			await executeWorkflow(t, WORKFLOW.nodes.length);
			await openNode(t, NODE);
			await t.waitForText(t.testId('output-panel'), /insert/);
			await t.shot('create-or-update-first-run');
			await t.picture('create-or-update-output', t.testId('ndv'));
			const actions = await outputActions(t);
			assert.deepEqual(actions, ['update', 'unchanged', 'insert'], 'one item per CSV row');
			await closeDialog(t, 'ndv');
			const commits = commitsTo100(await first());
			const entries = commits.flatMap((commit) => commit.body.entries);
			assert.deepEqual(
				entries.filter((entry) => 'id' in entry).map((entry) => entry.data),
				[{ Age: 46 }],
				"Carla's changed cell, as the number its column holds",
			);
			assert.deepEqual(
				entries.filter((entry) => !('id' in entry)).map((entry) => entry.data),
				[{ Name: 'Ivy Chen', Email: 'ivy@example.com', Department: 'Design', Age: 29 }],
				'Ivy created, her age a number',
			);

			const second = await sandboxRequestsFromNow(t);
			await t.click(t.testId('execute-workflow-button'));
			// The run is over when the node's output says every row is unchanged.
			await openNode(t, NODE);
			await t.page.waitForFunction(
				(selector) => {
					const text = globalThis.document.querySelector(selector)?.innerText ?? '';
					return !/\binsert\b|\bupdate\b/.test(text) && /unchanged/.test(text);
				},
				{ timeout: WAIT_MS, polling: 250 },
				t.testId('output-panel'),
			);
			await t.shot('create-or-update-re-run');
			assert.deepEqual(await outputActions(t), ['unchanged', 'unchanged', 'unchanged']);
			await closeDialog(t, 'ndv');
			assert.deepEqual(commitsTo100(await second()), [], 'the re-run sends no commit');
		},
	},
];

/** The `action` of each item the open node's output panel shows, read from its JSON view. */
async function outputActions(t) {
	const text = await t.page.$eval(t.testId('output-panel'), (element) => element.innerText);
	return [...text.matchAll(/\b(insert|update|unchanged)\b/g)].map((match) => match[1]);
}

module.exports = { scenarios };
