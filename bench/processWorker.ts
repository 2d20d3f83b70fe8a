/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// One n8n process of `node bench/processes.js`: it loads n8n-core and the package, says it is
// ready, and on the go runs a Sync and an email batch run at once through n8n-core's engine, on the
// token the other processes use, then reports when each ended. Driven by IPC messages.
import { WorkflowExecute } from 'n8n-core';
import type { IConnections, INode, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { STEADY_POLICY } from '../nodes/Fliplet/transport/allowance';
import { FLIPLET_NODE, nodeTypes, TOKENS } from '../test/harness';
import { additionalData } from '../test/harness/engine';
// engine.ts registers the bench.rows input node.
import './engine';
import { rowsInput } from './rowsNode';

export interface WorkerTask {
	index: number;
	sandboxUrl: string;
	/** The credential's count of n8n processes on the token. */
	processes: number;
	sync?: { dataSourceId: number; rows: number; chunkSize: number };
	email?: { items: number; batchSize: number };
}

export interface WorkerRun {
	error?: string;
	startedAt: number;
	endedAt: number;
}

const credential = { id: 'processes', name: 'Processes' };

// BENCH_POLICY (JSON) overrides the data sources' pacing constants in every process, as SIM_POLICY
// does in virtual time (bench/pacingSimulation.js), to try a constant with real processes.
if (process.env.BENCH_POLICY) Object.assign(STEADY_POLICY, JSON.parse(process.env.BENCH_POLICY));

async function run(
	task: WorkerTask,
	name: string,
	rows: number,
	action: INode,
): Promise<WorkerRun> {
	const nodes: INode[] = [rowsInput({ count: rows, changeEvery: 0 }), action];
	const connections: IConnections = {
		Rows: { main: [[{ node: action.name, type: 'main', index: 0 }]] },
	};
	const data = { id: name, name, active: false, nodes, connections };
	const workflow = new Workflow({ ...data, nodeTypes, settings: { executionOrder: 'v1' } });
	const credentials = {
		flipletApi: {
			accessToken: TOKENS.app,
			region: 'custom',
			baseUrl: task.sandboxUrl,
			processes: task.processes,
		},
	};
	const startedAt = Date.now();
	const outcome = await new WorkflowExecute(
		additionalData(
			credentials,
			`${name}-${task.index}`,
			'manual',
			data as unknown as IWorkflowBase,
		),
		'manual',
	).run({ workflow, startNode: workflow.getNode('Rows') ?? undefined });
	const failure =
		outcome.data.resultData.runData[action.name]?.[0]?.error ?? outcome.data.resultData.error;
	return { error: failure?.message, startedAt, endedAt: Date.now() };
}

/** A Fliplet node of the package after the rows, on the token the processes share. */
function flipletNode(name: string, parameters: INode['parameters']): INode {
	return {
		id: name.toLowerCase(),
		name,
		type: FLIPLET_NODE,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		credentials: { flipletApi: credential },
	};
}

const syncNode = ({ sync }: WorkerTask) =>
	flipletNode('Sync', {
		resource: 'entry',
		operation: 'sync',
		dataSource: { __rl: true, mode: 'id', value: String(sync!.dataSourceId) },
		keyColumns: 'Email',
		syncOptions: { chunkSize: sync!.chunkSize },
	});

const emailNode = ({ index, email }: WorkerTask) =>
	flipletNode('Email', {
		resource: 'email',
		operation: 'send',
		to: '={{ $json.Email }}',
		// Each process's messages differ, so each request is told apart from the others'.
		subject: `=Process ${index}: hello {{ $json.Name }}`,
		html: '=<p>Hi {{ $json.Name }}</p>',
		sendInBatches: true,
		batchSize: email!.batchSize,
	});

async function main(task: WorkerTask, startAt: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	const [sync, email] = await Promise.all([
		task.sync ? run(task, 'sync', task.sync.rows, syncNode(task)) : undefined,
		task.email ? run(task, 'email', task.email.items, emailNode(task)) : undefined,
	]);
	process.send!({ done: { sync, email } });
}

process.on('message', (message: { task?: WorkerTask; startAt?: number }) => {
	if (message.task && message.startAt !== undefined) {
		main(message.task, message.startAt).catch((error) => {
			process.send!({ failed: String(error?.stack ?? error) });
		});
	}
});
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
