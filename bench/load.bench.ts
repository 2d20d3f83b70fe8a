import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { INode, IRun, IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes, registerNodeType, TOKENS } from '../test/harness';
import { TestCredentialsHelper } from '../test/harness/credentials';
import { BenchRows } from './rowsNode';
import { SandboxProcess } from './sandboxClient';

registerNodeType('bench.rows', () => new BenchRows());

const ROWS = Number(process.env.BENCH_LOAD_ROWS ?? 50_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const gc = (globalThis as { gc?: () => void }).gc;

function additionalData(url: string, workflowData: IWorkflowBase): IWorkflowExecuteAdditionalData {
	const base = 'http://127.0.0.1:5678/';
	return {
		credentialsHelper: new TestCredentialsHelper({
			flipletApi: { accessToken: TOKENS.app, region: 'custom', baseUrl: url },
		}),
		hooks: new ExecutionLifecycleHooks('manual', 'load', workflowData),
		executionId: 'load',
		variables: {},
		restApiUrl: base + 'rest',
		instanceBaseUrl: base,
		webhookBaseUrl: base + 'webhook',
		webhookWaitingBaseUrl: base + 'webhook-waiting',
		webhookTestBaseUrl: base + 'webhook-test',
		formWaitingBaseUrl: base + 'form-waiting',
		currentNodeExecutionIndex: 0,
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Rows → Sync (insert all) → Get Many with a JSON query matching every entry, return all. */
function workflowFor(dataSourceId: number) {
	const dataSource = { __rl: true, mode: 'id', value: String(dataSourceId) };
	const nodes: INode[] = [
		{
			id: 'rows',
			name: 'Rows',
			type: 'bench.rows',
			typeVersion: 1,
			position: [0, 0],
			parameters: { count: ROWS, changeEvery: 0 },
		},
		{
			id: 'sync',
			name: 'Sync',
			type: FLIPLET_NODE,
			typeVersion: 1,
			position: [200, 0],
			parameters: { resource: 'entry', operation: 'sync', dataSource, keyColumns: 'Email' },
			credentials: { flipletApi: { id: 'load', name: 'Load' } },
		},
		{
			id: 'query',
			name: 'Query',
			type: FLIPLET_NODE,
			typeVersion: 1,
			position: [400, 0],
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource,
				queryMode: 'json',
				where: '{"Age": {"$gte": 0}}',
				returnAll: true,
			},
			credentials: { flipletApi: { id: 'load', name: 'Load' } },
		},
	];
	const connections = {
		Rows: { main: [[{ node: 'Sync', type: 'main' as const, index: 0 }]] },
		Sync: { main: [[{ node: 'Query', type: 'main' as const, index: 0 }]] },
	};
	const data = { id: 'load', name: 'Load', active: false, nodes, connections };
	const workflow = new Workflow({
		...data,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	return { workflow, workflowData: data as unknown as IWorkflowBase };
}

async function createDataSource(url: string): Promise<number> {
	const response = await fetch(`${url}/v1/data-sources?appId=11`, {
		method: 'POST',
		headers: { 'Auth-token': TOKENS.app, 'Content-Type': 'application/json' },
		body: JSON.stringify({ name: `Load ${ROWS}` }),
	});
	const body = (await response.json()) as { dataSource?: { id: number } };
	if (!body.dataSource) throw new Error(`Creating a data source answered ${response.status}`);
	return body.dataSource.id;
}

export async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	try {
		const dataSourceId = await createDataSource(sandbox.url);
		await sandbox.mark();
		const { workflow, workflowData } = workflowFor(dataSourceId);

		gc?.();
		const baseline = process.memoryUsage();
		let peakHeap = baseline.heapUsed;
		let peakRss = baseline.rss;
		const timer = setInterval(() => {
			const usage = process.memoryUsage();
			peakHeap = Math.max(peakHeap, usage.heapUsed);
			peakRss = Math.max(peakRss, usage.rss);
		}, 5);
		const started = Date.now();
		let run: IRun;
		try {
			run = await new WorkflowExecute(additionalData(sandbox.url, workflowData), 'manual').run({
				workflow,
				startNode: workflow.getNode('Rows') ?? undefined,
			});
		} finally {
			clearInterval(timer);
		}
		const wallMs = Date.now() - started;

		const runData = run.data.resultData.runData;
		const failed = ['Sync', 'Query'].find((name) => runData[name]?.[0]?.error);
		if (failed || run.data.resultData.error) {
			throw runData[failed ?? '']?.[0]?.error ?? run.data.resultData.error;
		}
		const summary = runData.Sync[0].data?.main?.[0]?.[0]?.json ?? {};
		const queried = runData.Query[0].data?.main?.[0] ?? [];
		const stats = await sandbox.stats();
		const content = await sandbox.content(dataSourceId, 'Email');
		const distinctQueried = new Set(queried.map((item) => item.json.Email)).size;

		console.log(`Load: ${ROWS} items → Entry Sync → Entry Get Many (JSON query, all) in one run`);
		console.log(
			`  Sync: ${JSON.stringify({ inserted: summary.inserted, commits: summary.commits })}, ${seconds(runData.Sync[0].executionTime)}`,
		);
		console.log(
			`  Get Many: ${queried.length} items (${distinctQueried} distinct keys), ${seconds(runData.Query[0].executionTime)}`,
		);
		console.log(`  Data source: ${content.entries} entries, ${content.distinctKeys} distinct keys`);
		console.log(
			`  Requests: ${stats.requests} (${stats.commits} commits, ${stats.queries} queries, ${stats.rateLimited} answered 429), ${mb(stats.bytes)} sent`,
		);
		console.log(`  Whole execution: ${seconds(wallMs)}`);
		console.log(
			`  Peak heap: ${mb(peakHeap)} (baseline ${mb(baseline.heapUsed)}), peak RSS: ${mb(peakRss)}${gc ? '' : ' (run with --expose-gc for a clean baseline)'}`,
		);
		const ok =
			summary.inserted === ROWS &&
			queried.length === ROWS &&
			distinctQueried === ROWS &&
			content.entries === ROWS &&
			content.distinctKeys === ROWS;
		console.log(`  Check: ${ok ? 'no row lost, none duplicated' : 'MISMATCH'}`);
		if (!ok) process.exitCode = 1;
	} finally {
		sandbox.stop();
	}
}
