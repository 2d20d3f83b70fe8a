/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { FlipletInstantTrigger } from '../../nodes/FlipletInstantTrigger/FlipletInstantTrigger.node';
import { additionalData, nodeTypes } from './engine';
import { registerNodeType } from './packageTypes';
import { assertNoSecretLeak, logsSinceCapture, secretsOf, startLogCapture } from './secretScan';

export const FLIPLET_INSTANT_TRIGGER = 'n8n-nodes-fliplet.flipletInstantTrigger';
registerNodeType(FLIPLET_INSTANT_TRIGGER, () => new FlipletInstantTrigger());

export interface WebhookExecution {
	/** What the trigger emitted into the workflow (its output items). */
	items: INodeExecutionData[];
	status: string;
	error?: Error & { description?: string };
}

export interface WebhookCall {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: unknown;
}

type HookMethod = 'checkExists' | 'create' | 'delete';

/**
 * Hosts a webhook trigger node as n8n does, over real HTTP on 127.0.0.1: publishing runs the
 * node's webhookMethods (checkExists, then create when it says no) with n8n-core's HookContext;
 * every POST to the node's production URL runs its webhook() with n8n-core's WebhookContext and,
 * when it returns workflow data, runs the workflow from it with WorkflowExecute. The workflow's
 * static data is saved and re-read between calls, as n8n (and queue mode) keeps it in its database.
 */
export class WebhookHost {
	readonly executions: WebhookExecution[] = [];
	readonly calls: WebhookCall[] = [];
	/** The static data as n8n would have saved it after the last call. */
	staticData: IDataObject = {};
	baseUrl = '';
	private server?: http.Server;
	private readonly node: INode;
	private pending = Promise.resolve();
	private readonly failures: unknown[] = [];

	constructor(
		readonly nodeType: string,
		parameters: INodeParameters,
		readonly credentials: Record<string, ICredentialDataDecryptedObject>,
		readonly webhookId = 'b6f8c1d2-5a4e-4c1b-9d7e-0f3a2b1c4d5e',
	) {
		this.node = {
			id: 'webhook-trigger',
			name: 'Instant Trigger',
			type: nodeType,
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			parameters,
			credentials: Object.fromEntries(
				Object.keys(credentials).map((name) => [
					name,
					{ id: `cred-${name}`, name: `Test ${name}` },
				]),
			),
		};
	}

	/** The node's own part of the static data (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		return (this.staticData[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
	}

	/** The production webhook URL n8n gives the node. */
	get productionUrl(): string {
		return `${this.baseUrl}/webhook/${this.webhookId}/webhook`;
	}

	async start(): Promise<void> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				this.pending = this.pending
					.then(() => this.receive(req, res, Buffer.concat(chunks)))
					.catch((error: unknown) => {
						this.failures.push(error);
					});
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		server?.closeAllConnections();
		if (server) await new Promise((resolve) => server.close(resolve));
	}

	/** Publishing: n8n's createWebhookIfNotExists. */
	async publish(): Promise<void> {
		const exists = await this.runHookMethod('checkExists', 'activate');
		if (!exists) await this.runHookMethod('create', 'activate');
	}

	/** Unpublishing: n8n's deleteWebhook. */
	async unpublish(): Promise<void> {
		await this.runHookMethod('delete', 'update');
	}

	/** Runs one webhook method the way n8n's WebhookService does, and saves the static data. */
	async runHookMethod(method: HookMethod, activation: WorkflowActivateMode): Promise<unknown> {
		const workflow = this.workflow();
		const data = this.additionalData('trigger');
		const fn = nodeTypes.getByName(this.nodeType).webhookMethods?.default?.[method];
		if (!fn) throw new Error(`${this.nodeType} has no webhook method ${method}`);
		const context = new HookContext(
			workflow,
			this.node,
			data,
			'trigger',
			activation,
			this.webhookData(data),
		);
		startLogCapture();
		let error: unknown;
		let result: unknown;
		try {
			result = await fn.call(context);
		} catch (thrown) {
			error = thrown;
		}
		assertNoSecretLeak(
			{ items: [result], error: error as Error | undefined, logs: logsSinceCapture() },
			secretsOf(this.credentials),
		);
		this.staticData = JSON.parse(JSON.stringify(workflow.staticData));
		if (error) throw error;
		return result;
	}

	/** Resolves once every call received so far was handled (executions included). */
	async settled(): Promise<void> {
		await this.pending;
		if (this.failures.length) throw this.failures[0];
	}

	private workflow(): Workflow {
		return new Workflow({
			id: 'webhook-workflow',
			name: 'Webhook',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(this.staticData)),
			settings: { executionOrder: 'v1' },
		});
	}

	private additionalData(mode: WorkflowExecuteMode): IWorkflowExecuteAdditionalData {
		const data = additionalData(this.credentials, `webhook-${this.calls.length}`, mode, {
			id: 'webhook-workflow',
		} as unknown as IWorkflowBase);
		data.webhookBaseUrl = `${this.baseUrl}/webhook`;
		data.webhookTestBaseUrl = `${this.baseUrl}/webhook-test`;
		return data;
	}

	private webhookData(data: IWorkflowExecuteAdditionalData): IWebhookData {
		const description = nodeTypes.getByName(this.nodeType).description.webhooks![0];
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${this.webhookId}/${String(description.path)}`,
			webhookDescription: description,
			workflowId: 'webhook-workflow',
			workflowExecuteAdditionalData: data,
			webhookId: this.webhookId,
		};
	}

	private async receive(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) {
		let body: unknown = {};
		try {
			body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
		} catch {
			body = raw.toString('utf8');
		}
		const call: WebhookCall = { status: 0, headers: req.headers, body };
		this.calls.push(call);
		const respond = (status: number, payload: unknown) => {
			call.status = status;
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(payload));
		};
		if (req.method !== 'POST' || req.url !== `/webhook/${this.webhookId}/webhook`) {
			return respond(404, { message: 'The requested webhook is not registered.' });
		}
		const workflow = this.workflow();
		const data = this.additionalData('webhook');
		data.httpRequest = { body, headers: req.headers, params: {}, query: {} } as never;
		data.httpResponse = res as never;
		const context = new WebhookContext(
			workflow,
			this.node,
			data,
			'webhook',
			this.webhookData(data),
			[],
			null,
		);
		startLogCapture();
		let result: IWebhookResponseData | undefined;
		let failure: Error | undefined;
		try {
			result = await nodeTypes.getByName(this.nodeType).webhook!.call(context);
		} catch (error) {
			failure = error as Error;
		}
		if (failure) {
			// n8n answers 500 and records an execution that failed in the trigger.
			respond(500, { message: 'Error in workflow' });
			this.executions.push({ items: [], status: 'error', error: failure });
		} else if (!result?.workflowData) {
			if (!res.writableEnded) respond(200, { message: 'Webhook call received' });
			else call.status = res.statusCode;
		} else {
			respond(200, { message: 'Workflow was started' });
			this.executions.push(await this.execute(workflow, result.workflowData));
		}
		assertNoSecretLeak(
			{
				items: this.executions.map((execution) => execution.items),
				error: failure,
				logs: logsSinceCapture(),
			},
			secretsOf(this.credentials),
		);
		this.staticData = JSON.parse(JSON.stringify(workflow.staticData));
	}

	private async execute(
		workflow: Workflow,
		workflowData: INodeExecutionData[][],
	): Promise<WebhookExecution> {
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: this.node, data: { main: workflowData }, source: null }],
			},
		});
		const run = await new WorkflowExecute(
			this.additionalData('webhook'),
			'webhook',
			runExecutionData,
		).processRunExecutionData(workflow);
		const nodeRun = run.data.resultData.runData[this.node.name]?.[0];
		return {
			items: nodeRun?.data?.main?.[0] ?? [],
			status: run.status,
			error: run.data.resultData.error as WebhookExecution['error'],
		};
	}
}
