/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes, registerNodeType, TOKENS } from '../test/harness';
import { additionalData } from '../test/harness/engine';
import { BenchRows, rowsInput } from './rowsNode';

registerNodeType('bench.rows', () => new BenchRows());

export interface MemoryPeak {
	/** Heap in use before the workflow starts (after a full collection). */
	baselineHeap: number;
	/** Heap in use when the Sync node starts: the baseline plus the input items n8n holds. */
	itemsHeap: number;
	peakHeap: number;
	peakRss: number;
}

export interface SyncRun {
	summary: IDataObject;
	/** The Sync node's own execution time, as n8n records it. */
	syncMs: number;
	wallMs: number;
	/** CPU time of this process (n8n and the node) during the run. */
	cpuMs: number;
	memory: MemoryPeak;
}

/** The harness's execution context, with the package's credential pointed at `sandboxUrl`. */
export function benchAdditionalData(
	sandboxUrl: string,
	workflowData: IWorkflowBase,
): IWorkflowExecuteAdditionalData {
	const credentials = {
		flipletApi: { accessToken: TOKENS.app, region: 'custom', baseUrl: sandboxUrl },
	};
	return additionalData(credentials, 'bench', 'manual', workflowData);
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * With live sampling, a full collection runs once the heap has grown past the live peak seen so far
 * by 5% of the growth (at least 8 MB): only the collected readings count, so the peak is memory in
 * use, and at most that step below the true peak.
 */
const gcStep = (growth: number) => Math.max(8 * 1024 * 1024, growth * 0.05);

/**
 * Samples the heap while `work` runs; the baseline is taken after a full collection (unless
 * `settle` is off: runs started together would each stop the others for it). With `live`
 * the peak is memory in use (see gcStep). That slows the run, so times are taken from runs
 * without it, which do not sample at all: reading the process's memory every few milliseconds
 * takes the very thread the node runs on (about 2% of a Sync's time).
 */
async function measured<T>(
	work: (atSyncStart: () => void) => Promise<T>,
	live: boolean,
	settle = true,
): Promise<{ value: T; memory: MemoryPeak }> {
	if (settle) gc?.();
	const baselineHeap = process.memoryUsage().heapUsed;
	let peakHeap = baselineHeap;
	let itemsHeap = baselineHeap;
	let peakRss = process.memoryUsage().rss;
	const collect = live && gc ? gc : undefined;
	const sample = (force = false) => {
		let usage = process.memoryUsage();
		peakRss = Math.max(peakRss, usage.rss);
		if (!collect) {
			peakHeap = Math.max(peakHeap, usage.heapUsed);
			return;
		}
		if (force || usage.heapUsed > peakHeap + gcStep(peakHeap - baselineHeap)) {
			collect();
			usage = process.memoryUsage();
			peakHeap = Math.max(peakHeap, usage.heapUsed);
		}
	};
	const atSyncStart = () => {
		collect?.();
		itemsHeap = process.memoryUsage().heapUsed;
		peakHeap = Math.max(peakHeap, itemsHeap);
	};
	const timer = live ? setInterval(sample, 5) : undefined;
	try {
		const value = await work(atSyncStart);
		sample(true);
		return { value, memory: { baselineHeap, itemsHeap, peakHeap, peakRss } };
	} finally {
		clearInterval(timer);
	}
}

/** Runs "Rows → Fliplet Entry Sync" through n8n-core's real engine. */
export async function runSyncWorkflow(
	sandboxUrl: string,
	rows: { count: number; changeEvery: number; start?: number },
	syncParameters: IDataObject,
	options: { liveMemory?: boolean; settleHeap?: boolean } = {},
): Promise<SyncRun> {
	const nodes: INode[] = [
		rowsInput(rows),
		{
			id: 'sync',
			name: 'Sync',
			type: FLIPLET_NODE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'entry',
				operation: 'sync',
				...syncParameters,
			} as INode['parameters'],
			credentials: { flipletApi: { id: 'bench', name: 'Bench' } },
		},
	];
	const connections = { Rows: { main: [[{ node: 'Sync', type: 'main' as const, index: 0 }]] } };
	const workflowData = {
		id: 'bench',
		name: 'Bench',
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: 'bench',
		name: 'Bench',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const started = Date.now();
	const cpuBefore = process.cpuUsage();
	const { value: run, memory } = await measured(
		async (atSyncStart) => {
			const additional = benchAdditionalData(sandboxUrl, workflowData);
			additional.hooks?.addHandler('nodeExecuteBefore', (nodeName) => {
				if (nodeName === 'Sync') atSyncStart();
			});
			return await new WorkflowExecute(additional, 'manual').run({
				workflow,
				startNode: workflow.getNode('Rows') ?? undefined,
			});
		},
		options.liveMemory === true,
		options.settleHeap !== false,
	);
	const wallMs = Date.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	const syncRun = run.data.resultData.runData.Sync?.[0];
	if (!syncRun || syncRun.error)
		throw syncRun?.error ?? run.data.resultData.error ?? new Error('Sync did not run');
	const summary = syncRun.data?.main?.[0]?.[0]?.json ?? {};
	return {
		summary,
		syncMs: syncRun.executionTime,
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		memory,
	};
}
