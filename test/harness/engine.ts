import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	NodeParameterValueType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { nodeClasses } from './packageTypes';
import { assertNoSecretLeak, logsSinceCapture, secretsOf, startLogCapture } from './secretScan';
import type { TestItem } from './testInput.node';

export const FLIPLET_NODE = 'n8n-nodes-fliplet.fliplet';

class PackageNodeTypes implements INodeTypes {
	private readonly cache = new Map<string, INodeType>();

	getByName(name: string): INodeType {
		return this.getByNameAndVersion(name);
	}

	getByNameAndVersion(name: string): INodeType {
		let type = this.cache.get(name);
		if (!type) {
			const create = nodeClasses[name];
			if (!create) throw new Error(`Unknown node type ${name}`);
			type = create();
			this.cache.set(name, type);
		}
		return type;
	}

	getKnownTypes() {
		return {};
	}
}

export const nodeTypes = new PackageNodeTypes();

export interface RunOptions {
	/** Parameters of the node under test. */
	parameters: INodeParameters;
	/** Items fed to it; one empty item when left out. */
	input?: TestItem[];
	/** Credential data by credential type; flipletApi defaults to the sandbox with an app token. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	nodeType?: string;
	typeVersion?: number;
	continueOnFail?: boolean;
	/** The node's Settings → On Error (overrides continueOnFail), e.g. continueErrorOutput. */
	onError?: INode['onError'];
	/**
	 * The node's Settings → Retry On Fail: n8n runs the node again, in the same execution, up to
	 * maxTries times (n8n keeps it between 2 and 5), waiting waitBetweenTries ms (default 10 here).
	 */
	retryOnFail?: { maxTries?: number; waitBetweenTries?: number };
	/** Static data to start from (and that the run updates), for trigger tests. */
	staticData?: IDataObject;
	mode?: WorkflowExecuteMode;
	/** Sub-nodes connected to the node under test (e.g. a chat model), with the same credentials. */
	subNodes?: Array<{ name: string; type: string; connection: string; parameters: INodeParameters }>;
	/** Called once the run started, with what stops it as n8n's Stop button does. */
	whileRunning?: (stop: () => void) => void;
	/**
	 * Fliplet nodes (same credentials) that run before the node under test in the same execution,
	 * in a chain: Input → before[0] → … → Under Test.
	 */
	before?: Array<{ name: string; parameters: INodeParameters }>;
}

export interface RunResult {
	run: IRun;
	status: IRun['status'];
	/** Output items of the node under test (first output). */
	items: INodeExecutionData[];
	json: IDataObject[];
	/** The error that stopped the node, if any. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string };
	workflow: Workflow;
}

let executionCounter = 0;

export function additionalData(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	executionId: string,
	mode: WorkflowExecuteMode,
	workflowData: IWorkflowBase,
): IWorkflowExecuteAdditionalData {
	const base = 'http://127.0.0.1:5678/';
	return {
		credentialsHelper: new TestCredentialsHelper(credentials),
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		executionId,
		variables: {},
		restApiUrl: base + 'rest',
		instanceBaseUrl: base,
		webhookBaseUrl: base + 'webhook',
		webhookWaitingBaseUrl: base + 'webhook-waiting',
		webhookTestBaseUrl: base + 'webhook-test',
		formWaitingBaseUrl: base + 'form-waiting',
		formBaseUrl: base + 'form',
		formTestBaseUrl: base + 'form-test',
		mcpBaseUrl: base + 'mcp',
		mcpTestBaseUrl: base + 'mcp-test',
		currentNodeExecutionIndex: 0,
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used in these tests');
		},
		getRuntimeCredential: async () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs Input → node under test through n8n-core's real execution engine. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const mode = options.mode ?? 'manual';
	const executionId = String(++executionCounter);
	const nodeType = options.nodeType ?? FLIPLET_NODE;
	const input: TestItem[] = options.input ?? [{ json: {} }];
	const credentialTypesUsed = Object.keys(options.credentials ?? {});
	const underTest: INode = {
		id: 'node-under-test',
		name: 'Under Test',
		type: nodeType,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: Object.fromEntries(
			credentialTypesUsed.map((type) => [type, { id: `cred-${type}`, name: `Test ${type}` }]),
		),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.onError ? { onError: options.onError } : {}),
		...(options.retryOnFail
			? {
					retryOnFail: true,
					maxTries: options.retryOnFail.maxTries ?? 3,
					waitBetweenTries: options.retryOnFail.waitBetweenTries ?? 10,
				}
			: {}),
	};
	const inputNode: INode = {
		id: 'input',
		name: 'Input',
		type: 'test.input',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(input) } as Record<string, NodeParameterValueType>,
	};
	const isTrigger = !!nodeTypes.getByName(nodeType).poll;
	const subNodes: INode[] = (options.subNodes ?? []).map((sub, index) => ({
		id: `sub-node-${index}`,
		name: sub.name,
		type: sub.type,
		typeVersion: 1,
		position: [200, 200 + index * 100],
		parameters: sub.parameters,
		credentials: underTest.credentials,
	}));
	const earlier: INode[] = (options.before ?? []).map((node, index) => ({
		id: `before-${index}`,
		name: node.name,
		type: FLIPLET_NODE,
		typeVersion: 1,
		position: [100 + index * 10, 0],
		parameters: node.parameters,
		credentials: underTest.credentials,
	}));
	const chain = isTrigger ? [underTest] : [inputNode, ...earlier, underTest];
	const nodes = [...chain, ...subNodes];
	const connections: IConnections = {};
	chain.slice(0, -1).forEach((from, index) => {
		connections[from.name] = { main: [[{ node: chain[index + 1].name, type: 'main', index: 0 }]] };
	});
	for (const sub of options.subNodes ?? []) {
		connections[sub.name] = {
			[sub.connection]: [[{ node: 'Under Test', type: sub.connection as never, index: 0 }]],
		};
	}
	const workflowData: IWorkflowBase = {
		id: 'test-workflow',
		name: 'Test',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as unknown as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData: options.staticData,
		settings: { executionOrder: 'v1' },
	});
	const data = additionalData(options.credentials ?? {}, executionId, mode, workflowData);
	startLogCapture();
	const execution = new WorkflowExecute(data, mode).run({
		workflow,
		startNode: workflow.getNode(nodes[0].name) ?? undefined,
	});
	options.whileRunning?.(() => execution.cancel());
	const run = await execution;
	const nodeRuns = run.data.resultData.runData['Under Test'] ?? [];
	const items = nodeRuns[0]?.data?.main?.[0] ?? [];
	const error = (nodeRuns[0]?.error ?? run.data.resultData.error) as RunResult['error'];
	// Every run of the suite is scanned: no token or credential secret in items, errors or logs.
	assertNoSecretLeak(
		{ items, error, logs: logsSinceCapture() },
		secretsOf(options.credentials ?? {}),
	);
	return {
		run,
		status: run.status,
		items,
		json: items.map((item) => item.json),
		error,
		workflow,
	};
}
