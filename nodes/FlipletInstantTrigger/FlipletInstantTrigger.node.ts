import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, randomString } from 'n8n-workflow';

import { dataSourceLocator } from '../Fliplet/actions/dataSource/dataSource.descriptions';
import { downloadFilesFields } from '../Fliplet/actions/files.descriptions';
import { triggerEntryItems } from '../Fliplet/helpers/fileDownloads';
import { getDataSourceTarget, type DataSourceTarget } from '../Fliplet/helpers/dataSourceTarget';
import { asNodeError } from '../Fliplet/helpers/nodeError';
import { credentialTest, listSearch, loadOptions } from '../Fliplet/methods';
import { cursorAtLatest, storeCursor } from '../FlipletTrigger/cursor';
import { dataSourceEntrySource } from '../FlipletTrigger/sources/dataSourceEntries';
import { readHooks, writeHooks } from './dataSourceHooks';
import { ringDoorbell, versionField } from './doorbell';
import {
	isTriggerHook,
	sameJson,
	sameSecret,
	SECRET_HEADER,
	triggerHook,
	type HookEvent,
} from './hookList';
import { mergeRecords, savedRecord, startRecord, type Activation } from './record';
import { forgetTurns, takeTurn } from './turns';

const SECRET_LENGTH = 40;

function activation(context: IHookFunctions | IWebhookFunctions): Activation {
	return context.getWorkflowStaticData('node') as Activation;
}

/** Forgets an activation: its secret, its data source and what it delivered. */
function forget(stored: Activation): void {
	for (const key of ['secret', 'dataSourceId', 'cursor']) delete stored[key];
}

/** Where this process holds an activation's record between calls (see turns.ts). */
function turnKey(context: IHookFunctions | IWebhookFunctions, secret: string): string {
	return `${context.getWorkflow().id}/${context.getNode().id}/${secret}`;
}

/** The entries of the activation's data source, read in order of the chosen events' time field. */
function changes(
	context: IHookFunctions | IWebhookFunctions,
	dataSourceId: number,
	events: HookEvent[],
) {
	return dataSourceEntrySource(
		context,
		{ ref: String(dataSourceId), qs: {} },
		versionField(events),
	);
}

function chosenTarget(context: IHookFunctions): DataSourceTarget {
	return getDataSourceTarget.call(context, 0);
}

function chosenEvents(context: IHookFunctions): HookEvent[] {
	const events = context.getNodeParameter('events', []) as HookEvent[];
	if (!events.length) {
		throw new NodeOperationError(context.getNode(), 'No event chosen', {
			description: 'Pick "Entry Inserted", "Entry Updated" or both in "Trigger On".',
		});
	}
	return events;
}

function webhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(context.getNode(), 'n8n gave no webhook URL');
	return url;
}

export class FlipletInstantTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet Instant Trigger',
		name: 'flipletInstantTrigger',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ "Entry " + $parameter["events"].join(" or ") }}',
		description:
			'Starts a workflow the moment an entry is inserted or updated in a Fliplet data source (the platform calls n8n)',
		defaults: { name: 'Fliplet Instant Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'flipletApi', required: true, testedBy: 'flipletApiTest' }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					'Fliplet must reach this n8n: publishing adds a hook to the data source that calls the workflow\'s webhook URL. If n8n is not reachable from the internet, use the "Fliplet Trigger" node, which polls.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			dataSourceLocator({
				description:
					'The data source whose entries start the workflow. The token needs the right to update this data source (to add and remove the hook) and to read its entries.',
			}),
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['insert'],
				options: [
					{ name: 'Entry Inserted', value: 'insert', description: 'An entry is added' },
					{ name: 'Entry Updated', value: 'update', description: 'An entry is changed' },
				],
				description:
					'Changes that start the workflow. A commit (bulk change) starts it only when it asks to run hooks (runHooks).',
			},
			// Download Files (issue 38): the entry's files as binary data, see triggerEntryItems.
			...downloadFilesFields,
		],
	};

	methods = { credentialTest, listSearch, loadOptions };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const { secret, dataSourceId } = activation(this);
				if (!secret || dataSourceId === undefined) return false;
				const url = webhookUrl(this);
				const { id, hooks } = await readHooks.call(this, chosenTarget(this));
				const ours = hooks.filter((hook) => isTriggerHook(hook, url));
				const expected = triggerHook(url, chosenEvents(this), secret, id);
				return id === dataSourceId && ours.length === 1 && sameJson(ours[0], expected);
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrl(this);
				const events = chosenEvents(this);
				const { id, hooks } = await readHooks.call(this, chosenTarget(this));
				const secret = randomString(SECRET_LENGTH);
				const others = hooks.filter((hook) => !isTriggerHook(hook, url));
				await writeHooks.call(this, id, [...others, triggerHook(url, events, secret, id)]);
				const written = await readHooks.call(this, { ref: String(id), qs: {} });
				if (!written.hooks.some((hook) => isTriggerHook(hook, url))) {
					throw new NodeOperationError(this.getNode(), 'Fliplet did not keep the hook', {
						description:
							'The data source was updated but its hooks do not include this trigger. Check that the token may update the data source, then publish again.',
					});
				}
				// The data source's time once the hook is in is when calls may start to come.
				const record = await startRecord(changes(this, id, events), written.updatedAt);
				const stored = activation(this);
				forget(stored);
				Object.assign(stored, { secret, dataSourceId: id });
				storeCursor(stored, record);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const stored = activation(this);
				const url = webhookUrl(this);
				const target =
					stored.dataSourceId === undefined
						? chosenTarget(this)
						: { ref: String(stored.dataSourceId), qs: {} };
				let current;
				try {
					current = await readHooks.call(this, target);
				} catch (error) {
					// A deleted data source has no hook left to remove.
					if (String((error as { httpCode?: unknown }).httpCode) !== '404')
						throw asNodeError(this.getNode(), error);
				}
				if (current) {
					const kept = current.hooks.filter((hook) => !isTriggerHook(hook, url));
					if (kept.length !== current.hooks.length) await writeHooks.call(this, current.id, kept);
				}
				if (stored.secret) forgetTurns(turnKey(this, stored.secret));
				forget(stored);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const { secret, dataSourceId } = activation(this);
		const given = this.getHeaderData()[SECRET_HEADER.toLowerCase()];
		if (!secret || typeof given !== 'string' || !sameSecret(given, secret)) {
			// Refused before anything runs: no execution starts for a call without the secret.
			return answerWithoutRun(this, 401, 'This hook call is not signed for this workflow');
		}
		if (dataSourceId === undefined) {
			throw new NodeOperationError(this.getNode(), 'This activation has no data source', {
				description: 'Unpublish the workflow and publish it again.',
			});
		}
		// A signed call is a doorbell: whatever its body says, what changed is read from Fliplet with
		// the workflow's own credential, and each new entry version starts a run once.
		const events = this.getNodeParameter('events', []) as HookEvent[];
		const source = changes(this, dataSourceId, events);
		const entries = await takeTurn(turnKey(this, secret), async (held) => {
			// The saved record is re-read inside the turn: this call's static data is its own copy.
			const stored = activation(this);
			const record =
				mergeRecords(savedRecord(stored, source), held) ?? (await cursorAtLatest(source));
			const delivery = await ringDoorbell(source, record, events);
			storeCursor(stored, delivery.record);
			return { result: delivery.entries, record: delivery.record };
		});
		if (!entries.length) {
			return answerWithoutRun(this, 200, 'No entry changed since the last delivery');
		}
		// Download Files (issue 38): the entries with their files when asked (a file that cannot be
		// downloaded is reported in its item, the run still starts).
		return { workflowData: [await triggerEntryItems(this, entries)] };
	}
}

/** Answers the hook call at once, starting no execution. */
function answerWithoutRun(
	context: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	const response = context.getResponseObject();
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify({ message }));
	return { noWebhookResponse: true };
}
