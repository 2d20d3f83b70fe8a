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
	INodeType,
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

/** A call held back on its way to n8n (see `WebhookHost.holdCalls`). */
export interface HeldCall {
	headers: Record<string, string>;
	body: unknown;
}

/** Header of a held call handed on by the test itself (taken off before the node sees it). */
const DELIVERY_HEADER = 'x-webhook-host-delivery';

/**
 * Hosts a webhook trigger node as n8n does, over real HTTP on 127.0.0.1: publishing runs the
 * node's webhookMethods (checkExists, then create when it says no) with n8n-core's HookContext;
 * every POST to the node's production URL runs its webhook() with n8n-core's WebhookContext and,
 * when it returns workflow data, runs the workflow from it with WorkflowExecute. Calls are handled
 * as n8n's LiveWebhooks handles them: each one as it arrives, whatever else is under way, on a copy
 * of the static data loaded when it arrives; once the node returned (without throwing) and the call
 * is answered, that copy is saved whole, the last save replacing the others, before the workflow
 * runs (n8n saves it after handing the run over). `processes` are further copies of the node's
 * module, as other n8n processes load it (queue mode): a call handed on with `deliver(…, {process})`
 * runs in one of them, sharing only the saved static data.
 */
export class WebhookHost {
	readonly executions: WebhookExecution[] = [];
	readonly calls: WebhookCall[] = [];
	/** Calls held back on their way to n8n, in the order they came. */
	readonly held: HeldCall[] = [];
	/** The static data as n8n saved it last. */
	staticData: IDataObject = {};
	baseUrl = '';
	private server?: http.Server;
	private readonly node: INode;
	private readonly inFlight = new Set<Promise<void>>();
	private readonly failures: unknown[] = [];
	private holding = false;
	private readonly arrivalWaiters: Array<{ count: number; resolve: () => void }> = [];

	constructor(
		readonly nodeType: string,
		parameters: INodeParameters,
		readonly credentials: Record<string, ICredentialDataDecryptedObject>,
		readonly webhookId = 'b6f8c1d2-5a4e-4c1b-9d7e-0f3a2b1c4d5e',
		readonly processes: INodeType[] = [],
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
				const handled = this.receive(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
					this.failures.push(error);
				});
				this.inFlight.add(handled);
				void handled.finally(() => this.inFlight.delete(handled));
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
		while (this.inFlight.size) await Promise.all([...this.inFlight]);
		if (this.failures.length) throw this.failures[0];
	}

	/**
	 * From now on, calls to the production URL are held back on their way to n8n (answered 200 at
	 * once, as a proxy that buffers them would), until the test hands them on with `deliver`.
	 */
	holdCalls(): void {
		this.holding = true;
	}

	/**
	 * Resolves once `count` calls in all have reached n8n (each with its copy of the static data
	 * loaded), so a test can hold a call's first request until others have arrived too.
	 */
	arrived(count: number): Promise<void> {
		if (this.calls.length >= count) return Promise.resolve();
		return new Promise((resolve) => this.arrivalWaiters.push({ count, resolve }));
	}

	/** Calls reach n8n again as they come. */
	letCallsThrough(): void {
		this.holding = false;
	}

	/**
	 * Hands held calls (or any call) on to n8n: one after another, or `together` (all sent at once,
	 * each handled as it arrives), in `process` (0: this one; n: `processes[n - 1]`). Resolves with
	 * the status of each answer, once every call and the runs it started are over.
	 */
	async deliver(
		calls: HeldCall[],
		options: { together?: boolean; process?: number } = {},
	): Promise<number[]> {
		const send = async (call: HeldCall) => {
			const response = await fetch(this.productionUrl, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					...call.headers,
					[DELIVERY_HEADER]: String(options.process ?? 0),
				},
				body: JSON.stringify(call.body),
			});
			await response.arrayBuffer();
			return response.status;
		};
		const statuses: number[] = [];
		if (options.together) statuses.push(...(await Promise.all(calls.map(send))));
		else for (const call of calls) statuses.push(await send(call));
		await this.settled();
		return statuses;
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
		const delivery = req.headers[DELIVERY_HEADER];
		delete req.headers[DELIVERY_HEADER];
		const isHookUrl = req.method === 'POST' && req.url === `/webhook/${this.webhookId}/webhook`;
		if (isHookUrl && this.holding && delivery === undefined) {
			const headers = Object.fromEntries(
				Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
			);
			this.held.push({ headers, body });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: 'Held' }));
			return;
		}
		const call: WebhookCall = { status: 0, headers: req.headers, body };
		this.calls.push(call);
		const respond = (status: number, payload: unknown) => {
			call.status = status;
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(payload));
		};
		if (!isHookUrl) {
			return respond(404, { message: 'The requested webhook is not registered.' });
		}
		const process = Number(delivery ?? 0);
		const nodeType = process ? this.processes[process - 1] : nodeTypes.getByName(this.nodeType);
		// n8n loads the static data when the call arrives: this call works on its own copy.
		const workflow = this.workflow();
		for (const waiter of this.arrivalWaiters.filter(({ count }) => this.calls.length >= count)) {
			this.arrivalWaiters.splice(this.arrivalWaiters.indexOf(waiter), 1);
			waiter.resolve();
		}
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
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			failure = error as Error;
		}
		if (failure) {
			// n8n answers 500, records an execution that failed in the trigger and saves nothing.
			respond(500, { message: 'Error in workflow' });
			this.executions.push({ items: [], status: 'error', error: failure });
		} else {
			if (!result?.workflowData) {
				if (!res.writableEnded) respond(200, { message: 'Webhook call received' });
				else call.status = res.statusCode;
			} else {
				respond(200, { message: 'Workflow was started' });
			}
			// Saved whole, replacing whatever another call saved meanwhile.
			this.staticData = JSON.parse(JSON.stringify(workflow.staticData));
			if (result?.workflowData) {
				this.executions.push(await this.execute(workflow, result.workflowData));
			}
		}
		assertNoSecretLeak(
			{
				items: this.executions.map((execution) => execution.items),
				error: failure,
				logs: logsSinceCapture(),
			},
			secretsOf(this.credentials),
		);
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
