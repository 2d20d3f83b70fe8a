/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWorkflowBase,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FlipletTrigger } from '../../nodes/FlipletTrigger/FlipletTrigger.node';
import { additionalData, nodeTypes } from './engine';
import { registerNodeType } from './packageTypes';
import { assertNoSecretLeak, logsSinceCapture, secretsOf, startLogCapture } from './secretScan';

// n8n-core's services live in its own copy of the DI container: resolve that one, not a sibling.
const { Container } = require(
	require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
) as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

export const FLIPLET_TRIGGER = 'n8n-nodes-fliplet.flipletTrigger';
registerNodeType(FLIPLET_TRIGGER, () => new FlipletTrigger());

export interface PollOptions {
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The workflow's static data from the previous poll (what n8n saves between executions). */
	staticData?: IDataObject;
	/** 'trigger' is an active workflow's scheduled poll; 'manual' is "Fetch Test Event". */
	mode: 'trigger' | 'manual';
	activation?: WorkflowActivateMode;
	/** What the engine grants one poll (n8n's default: 5 minutes). */
	pollBudgetMs?: number;
}

export interface PollResult {
	/** What the poll emitted (null: nothing new). */
	items: INodeExecutionData[] | null;
	error?: Error & { description?: string };
	/** The static data to hand to the next poll, as n8n would have saved it. */
	staticData: IDataObject;
}

/** The `id`s of what a poll emitted, in order ([] when it emitted nothing). */
export const emittedIds = (items: Array<{ json: Record<string, any> }> | null) =>
	(items ?? []).map((item) => item.json.id);

/**
 * Runs one poll of the trigger the way n8n does: a fresh Workflow from the saved static data
 * (as in queue mode, nothing else survives between polls), a real PollContext, and n8n-core's
 * PollTriggerExecutor, which calls poll() and emits what it returns. 'manual' goes through the
 * same executor as the editor's "Fetch Test Event".
 */
export async function runPoll(options: PollOptions): Promise<PollResult> {
	const node: INode = {
		id: 'trigger',
		name: 'Fliplet Trigger',
		type: FLIPLET_TRIGGER,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { flipletApi: { id: 'cred-flipletApi', name: 'Test flipletApi' } },
	};
	const workflow = new Workflow({
		id: 'poll-workflow',
		name: 'Poll',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: JSON.parse(JSON.stringify(options.staticData ?? {})),
		settings: { executionOrder: 'v1' },
	});
	let emitted: INodeExecutionData[] | null = null;
	let emittedError: Error | undefined;
	const context = new PollContext(
		workflow,
		node,
		additionalData(options.credentials, 'poll', 'trigger', {
			id: 'poll-workflow',
		} as unknown as IWorkflowBase),
		options.mode,
		options.activation ?? (options.mode === 'manual' ? 'manual' : 'activate'),
		(data) => {
			emitted = data[0] ?? [];
		},
		(error) => {
			emittedError = error;
		},
		undefined,
		undefined,
		undefined,
		options.pollBudgetMs === undefined ? undefined : () => options.pollBudgetMs!,
	);
	const execute = Container.get(PollTriggerExecutor).create(workflow, node, context, () => true);
	let error: PollResult['error'];
	startLogCapture();
	try {
		await execute(options.mode === 'manual');
	} catch (thrown) {
		error = thrown as PollResult['error'];
	}
	// As every runNode: no token or credential secret in what the poll emitted, saved or logged.
	assertNoSecretLeak(
		{
			items: [emitted, workflow.staticData],
			error: error ?? emittedError,
			logs: logsSinceCapture(),
		},
		secretsOf(options.credentials),
	);
	return {
		items: emitted,
		error: error ?? emittedError,
		staticData: JSON.parse(JSON.stringify(workflow.staticData)),
	};
}
