'use strict';
// The queue-mode tier's workflows: each starts from a production webhook on main (which puts the
// execution on the queue), runs Fliplet nodes on a worker, and answers the caller with the last
// node's output plus the execution's id (to find the worker that ran it).

const CREDENTIAL = { flipletApi: { id: 'flipletSandbox01', name: 'Fliplet Sandbox' } };

function node(name, type, typeVersion, parameters, extra = {}) {
	return { id: `${name}-node`, name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

function webhook(path) {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
		{ webhookId: `fliplet-queue-${path}` },
	);
}

/** How many Syncs the shared-token checks run at once, each its own workflow (see pacedRuns). */
const PACED_RUNS = 10;

/**
 * The shared-token checks at the credential's count of processes left at 1 (the organization
 * token) and set to the tier's two workers (the app token: its own, so its requests meet a limit
 * the organization token's runs did not touch).
 */
const PACED_SETTINGS = [
	{
		title: 'several workers on one token',
		setting: 1,
		path: 'queue-paced',
		token: 'org',
		dataSource: 'pacedDataSource',
	},
	{
		title: 'several workers on one token, the credential set to 2 processes',
		setting: 2,
		path: 'queue-paced-two',
		token: 'app',
		dataSource: 'pacedTwoDataSource',
	},
];

/**
 * Each Sync of a shared-token check runs its own workflow (at `<path>-r<run>`) whose credential (the
 * same token) has a base URL ending in `/__tag/<path>-r<run>`: the sandbox records each request
 * with the run that sent it, so a refusal run is one request's (the Syncs all read and check the same data source,
 * and alike requests of several runs could not be told apart). The window the node keeps is the
 * origin's and the token's, so the runs of one worker still share it.
 */
function pacedRuns({ setting, path }) {
	return Array.from({ length: PACED_RUNS }, (_, index) => {
		const run = String(index + 1).padStart(2, '0');
		return {
			path: `${path}-r${run}`,
			workflowId: `queuePaced${setting}r${run}`.padEnd(16, '0'),
			credentialId: `flipletPaced${setting}r${run}`.padEnd(16, '0'),
			credentialName: `Fliplet Sandbox (${path}-r${run}, ${setting} process${setting > 1 ? 'es' : ''})`,
		};
	});
}

function fliplet(name, parameters, credentials = CREDENTIAL) {
	return node(name, 'n8n-nodes-fliplet.fliplet', 1, parameters, { credentials });
}

/** The credentials of the shared-token checks' runs (see pacedRuns). */
function pacedCredentials(sandboxUrl, tokens) {
	return PACED_SETTINGS.flatMap((settings) =>
		pacedRuns(settings).map((run) => ({
			id: run.credentialId,
			name: run.credentialName,
			type: 'flipletApi',
			data: {
				accessToken: tokens[settings.token],
				region: 'custom',
				baseUrl: `${sandboxUrl}/__tag/${run.path}`,
				...(settings.setting > 1 ? { processes: settings.setting } : {}),
			},
		})),
	);
}

/** Posted rows synced in small commits: many requests per run (see queueWorkflows). */
function pacedSync(id, path, dataSource, credentials) {
	return workflow(id, `Queue: sync posted rows in small commits (${path})`, [
		webhook(path),
		node('Rows', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body.rows', options: {} }),
		fliplet(
			'Sync Rows',
			{
				resource: 'entry',
				operation: 'sync',
				dataSource: dataSourceId(dataSource),
				keyColumns: 'Email',
				syncMode: 'insertAndUpdate',
				syncOptions: { chunkSize: 5 },
			},
			credentials,
		),
		withExecutionId(),
	]);
}

function withExecutionId() {
	return node('Execution', 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		includeOtherFields: true,
		assignments: {
			assignments: [
				{ id: 'execution-id', name: 'executionId', value: '={{ $execution.id }}', type: 'string' },
			],
		},
		options: {},
	});
}

/** A chain of nodes, each feeding the next. */
function workflow(id, name, nodes) {
	const connections = {};
	nodes.slice(0, -1).forEach((from, index) => {
		connections[from.name] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
	});
	return { id, name, active: false, settings: { executionOrder: 'v1' }, nodes, connections };
}

// "From list" mode, as the editor saves a pick: n8n validates a "By ID" value with a regular
// expression run under a 250 ms limit, which a starved CPU can exceed (the execution then fails).
const dataSourceId = (id) => ({ __rl: true, mode: 'list', value: String(id) });

/**
 * @param {{ insertDataSource: number, syncDataSource: number, overlapDataSource: number,
 *   pacedDataSource: number, pacedTwoDataSource: number }} ids
 */
function queueWorkflows(ids) {
	return [
		workflow('queueInsert00001', 'Queue: insert an entry', [
			webhook('queue-insert'),
			fliplet('Insert Entry', {
				resource: 'entry',
				operation: 'insert',
				dataSource: dataSourceId(ids.insertDataSource),
				columns: {
					mappingMode: 'defineBelow',
					value: { Name: '={{ $json.body.Name }}', Email: '={{ $json.body.Email }}' },
				},
			}),
			withExecutionId(),
		]),
		workflow('queueEmail000001', 'Queue: email an uploaded file', [
			webhook('queue-email'),
			fliplet('Send Email', {
				resource: 'email',
				operation: 'send',
				to: '={{ $json.body.to }}',
				subject: 'Uploaded report',
				html: '<p>The report is attached.</p>',
				options: { binaryProperties: 'report' },
			}),
			withExecutionId(),
		]),
		...[
			['queueSync0000001', 'queue-sync', ids.syncDataSource],
			['queueOverlap0001', 'queue-overlap', ids.overlapDataSource],
		].map(([id, path, dataSource]) =>
			workflow(id, `Queue: sync posted rows (${path})`, [
				webhook(path),
				node('Rows', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body.rows', options: {} }),
				fliplet('Sync Rows', {
					resource: 'entry',
					operation: 'sync',
					dataSource: dataSourceId(dataSource),
					keyColumns: 'Email',
					syncMode: 'insertAndUpdate',
				}),
				withExecutionId(),
			]),
		),
		// Small commits: many requests per run, so that runs on both workers together pass the
		// token's data-source limit (each worker keeps its own requests within it): with the
		// credential's count of processes at its default (1), and set to the two workers.
		...PACED_SETTINGS.flatMap((settings) =>
			pacedRuns(settings).map((run) =>
				pacedSync(run.workflowId, run.path, ids[settings.dataSource], {
					flipletApi: { id: run.credentialId, name: run.credentialName },
				}),
			),
		),
	];
}

module.exports = { queueWorkflows, pacedCredentials, pacedRuns, PACED_SETTINGS };
