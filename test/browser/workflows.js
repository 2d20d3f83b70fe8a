'use strict';
// Workflows the browser tier opens besides the examples, created through the editor's REST API
// (as an import would): an Insert whose columns the scenario fills in the resource mapper, and an
// email with a file attached from a binary property.

const { CREDENTIAL } = require('../../scripts/lib/editorSession');

const credentials = { flipletApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
const manualTrigger = {
	name: 'Run',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const chain = (...names) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, index) => [
				name,
				{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
			]),
	);

/** A Fliplet node on the sandbox credential, the `step`-th after the trigger. */
const flipletNode = (name, step, parameters) => ({
	name,
	type: 'n8n-nodes-fliplet.fliplet',
	typeVersion: 1,
	position: [240 * step, 0],
	credentials,
	parameters,
});

/** A data source of the sandbox as the picker stores it. */
const pickedDataSource = (id, name) => ({
	__rl: true,
	mode: 'list',
	value: id,
	cachedResultName: name,
});

const INSERT = {
	name: 'Browser tier: insert a staff entry',
	nodes: [
		manualTrigger,
		flipletNode('Insert Staff Entry', 1, {
			resource: 'entry',
			operation: 'insert',
			dataSource: pickedDataSource('100', 'Staff'),
			columns: { mappingMode: 'defineBelow', value: null },
		}),
	],
	connections: chain('Run', 'Insert Staff Entry'),
};

const EMAIL = {
	name: 'Browser tier: email a report with an attachment',
	nodes: [
		manualTrigger,
		{
			name: 'Report',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [240, 0],
			parameters: {
				jsCode:
					"return [{ json: { csv: Buffer.from('Name,Hours\\nAnn,7\\n').toString('base64') } }];",
			},
		},
		{
			name: 'Report File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [480, 0],
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'csv',
				options: { fileName: 'report.csv', mimeType: 'text/csv' },
			},
		},
		{
			name: 'Send Report',
			type: 'n8n-nodes-fliplet.fliplet',
			typeVersion: 1,
			position: [720, 0],
			credentials,
			parameters: {
				resource: 'email',
				operation: 'send',
				to: 'ann@example.com',
				subject: 'Hours this week',
				html: '<p>The report is attached.</p>',
				options: { binaryProperties: 'data' },
			},
		},
	],
	connections: chain('Run', 'Report', 'Report File', 'Send Report'),
};

/** An AI Agent with the Fliplet node as its tool and no model yet: the scenario adds the model. */
const AGENT = {
	name: 'Browser tier: an AI Agent that needs its model',
	nodes: [
		manualTrigger,
		{
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [260, 0],
			parameters: {
				promptType: 'define',
				text: 'Who works in Engineering? Look it up in the Staff Directory.',
				options: {},
			},
		},
		{
			name: 'Staff Directory',
			type: 'n8n-nodes-fliplet.flipletTool',
			typeVersion: 1,
			position: [420, 220],
			credentials,
			parameters: {
				descriptionType: 'manual',
				toolDescription: 'Reads the entries of the Staff data source',
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'list', value: '100', cachedResultName: 'Staff' },
				returnAll: true,
			},
		},
	],
	connections: {
		...chain('Run', 'AI Agent'),
		'Staff Directory': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
};

/** Creates the workflows once per run; returns them with their ids. */
async function testWorkflows(t) {
	if (!t.created) {
		const create = (workflow) =>
			t.rest.request('POST', '/rest/workflows', { ...workflow, settings: {}, active: false });
		const [insert, email, agent] = [await create(INSERT), await create(EMAIL), await create(AGENT)];
		t.created = {
			insert: insert.data ?? insert,
			email: email.data ?? email,
			agent: agent.data ?? agent,
		};
	}
	return t.created;
}

module.exports = {
	testWorkflows,
	manualTrigger,
	chain,
	credentials,
	flipletNode,
	pickedDataSource,
};
