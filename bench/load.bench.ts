/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { WorkflowExecute } from 'n8n-core';
import type { INode, IRun, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes } from '../test/harness';
// engine.ts also registers the bench.rows input node.
import { benchAdditionalData } from './engine';
import { rowsInput } from './rowsNode';
import { createDataSource, SandboxProcess } from './sandboxClient';

const ROWS = Number(process.env.BENCH_LOAD_ROWS ?? 50_000);
/** The 429 storm: 10,000 rows in chunks of 25 is 400 commits, twice the 200 per 10 s allowed. */
const STORM_ROWS = 10_000;
const STORM_CHUNK = 25;
const LIMIT = 200;
const WINDOW_MS = 10_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Rows → Sync (insert all) → Get Many with a JSON query matching every entry, return all; or,
 * for the storm, only Rows → Sync in small chunks.
 */
function workflowFor(dataSourceId: number, storm = false) {
	const dataSource = { __rl: true, mode: 'id', value: String(dataSourceId) };
	const nodes: INode[] = [
		rowsInput({ count: storm ? STORM_ROWS : ROWS, changeEvery: 0 }),
		{
			id: 'sync',
			name: 'Sync',
			type: FLIPLET_NODE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'entry',
				operation: 'sync',
				dataSource,
				keyColumns: 'Email',
				...(storm ? { syncOptions: { chunkSize: STORM_CHUNK } } : {}),
			},
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
	if (storm) nodes.pop();
	const connections = {
		Rows: { main: [[{ node: 'Sync', type: 'main' as const, index: 0 }]] },
		...(storm ? {} : { Sync: { main: [[{ node: 'Query', type: 'main' as const, index: 0 }]] } }),
	};
	const data = { id: 'load', name: 'Load', active: false, nodes, connections };
	const workflow = new Workflow({
		...data,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	return { workflow, workflowData: data as unknown as IWorkflowBase };
}

/**
 * A 10,000-row Sync at the platform's own data-source limit (200 requests per 10 s). The n-th
 * request (0-based) cannot go out before floor(n / 200) windows after the first, however fast
 * the client: that is the minimum the limit allows.
 */
async function storm(sandbox: SandboxProcess): Promise<void> {
	const dataSourceId = await createDataSource(sandbox.url, 'Storm');
	await sandbox.mark();
	const { workflow, workflowData } = workflowFor(dataSourceId, true);
	const started = Date.now();
	const run = await new WorkflowExecute(
		benchAdditionalData(sandbox.url, workflowData),
		'manual',
	).run({
		workflow,
		startNode: workflow.getNode('Rows') ?? undefined,
	});
	const wallMs = Date.now() - started;
	const sync = run.data.resultData.runData.Sync?.[0];
	if (!sync || sync.error) throw sync?.error ?? run.data.resultData.error;
	const stats = await sandbox.stats();
	const content = await sandbox.content(dataSourceId, 'Email');
	const accepted = stats.requests - stats.rateLimited;
	const minimumMs = Math.floor((accepted - 1) / LIMIT) * WINDOW_MS;
	console.log(
		`429 storm: ${STORM_ROWS} rows, chunks of ${STORM_CHUNK}, limit ${LIMIT} per ${WINDOW_MS / 1000} s`,
	);
	console.log(`  Requests: ${accepted} accepted, ${stats.rateLimited} answered 429`);
	console.log(
		`  Sync node: ${seconds(sync.executionTime)}, whole execution ${seconds(wallMs)}; minimum the limit allows ${seconds(minimumMs)} (ratio ${(sync.executionTime / minimumMs).toFixed(2)})`,
	);
	console.log(`  Data source: ${content.entries} entries, ${content.distinctKeys} distinct keys`);
	if (content.entries !== STORM_ROWS || content.distinctKeys !== STORM_ROWS) process.exitCode = 1;
}

export async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	try {
		const dataSourceId = await createDataSource(sandbox.url, `Load ${ROWS}`);
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
			run = await new WorkflowExecute(benchAdditionalData(sandbox.url, workflowData), 'manual').run(
				{
					workflow,
					startNode: workflow.getNode('Rows') ?? undefined,
				},
			);
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
		if (process.env.BENCH_LOAD_STORM !== '0') await storm(sandbox);
	} finally {
		sandbox.stop();
	}
}
