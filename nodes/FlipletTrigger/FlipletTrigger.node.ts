import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { isoDate } from '../Fliplet/actions/organization/dates';
import { appLocator } from '../Fliplet/actions/common.descriptions';
import { dataSourceLocator } from '../Fliplet/actions/dataSource/dataSource.descriptions';
import { downloadFilesFields } from '../Fliplet/actions/files.descriptions';
import { triggerEntryItems } from '../Fliplet/helpers/fileDownloads';
import {
	analyticsEventsField,
	eventTypesField,
	organizationLocator,
} from '../Fliplet/actions/organization/organization.descriptions';
import { labelSubtitle, optionLabels } from '../Fliplet/helpers/subtitle';
import { credentialTest, listSearch, loadOptions } from '../Fliplet/methods';
import { cursorAtLatest, eventsSince, storeCursor, storedCursor, type EventSource } from './cursor';
import { eventSource } from './sources';

const show = (...event: string[]) => ({ show: { event } });

/** The events that deliver data-source entries (whose files Download Files fetches). */
const ENTRY_EVENTS = ['newEntry', 'newOrUpdatedEntry'];

const eventField: INodeProperties = {
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	// An event an app token can run: the audit log needs an organization token.
	default: 'newEntry',
	options: [
		{
			name: 'New Audit Log Event',
			value: 'auditLog',
			description: 'A new record in the audit log of an organization (needs an organization token)',
		},
		{
			name: 'New Data Source Entry',
			value: 'newEntry',
			description: 'An entry (row) added to a data source',
		},
		{
			name: 'New Notification',
			value: 'newNotification',
			description: 'A notification created in an app (draft, scheduled or published)',
		},
		{
			name: 'New or Updated Data Source Entry',
			value: 'newOrUpdatedEntry',
			description: 'An entry added to a data source, or changed',
		},
	],
};

export class FlipletTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet Trigger',
		name: 'flipletTrigger',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: labelSubtitle(optionLabels(eventField), ['event']),
		// n8n's node panel shows one entry for Fliplet and Fliplet Trigger, with this description.
		description:
			'Work with Fliplet apps: data sources and sync, email and SMS, notifications, audit logs, analytics, publishing and app-scoped AI. Starts a workflow when something new happens (checked on a schedule).',
		defaults: { name: 'Fliplet Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'flipletApi', required: true, testedBy: 'flipletApiTest' }],
		properties: [
			eventField,
			{ ...organizationLocator(), displayOptions: show('auditLog') },
			{ ...eventTypesField, displayOptions: show('auditLog') },
			{ ...dataSourceLocator(), displayOptions: show(...ENTRY_EVENTS) },
			{ ...appLocator(), displayOptions: show('newNotification') },
			{ ...analyticsEventsField, displayOptions: show('auditLog') },
			...downloadFilesFields.map((field) => ({
				...field,
				displayOptions: {
					show: { ...field.displayOptions?.show, event: ENTRY_EVENTS },
				},
			})),
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'dateTime',
				default: '',
				description:
					'Also deliver events since this moment on the first poll. Empty starts from the moment the workflow is activated (no history).',
			},
			{
				displayName: 'Max Events per Poll',
				name: 'maxEventsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1000,
				description:
					'Upper bound of events one poll delivers; the rest are delivered by the next polls, none is lost',
			},
		],
	};

	methods = { credentialTest, listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const source = await eventSource(this);
		if (this.getMode() === 'manual') return await latestEvent(this, source);

		const staticData = this.getWorkflowStaticData('node');
		let cursor = storedCursor(staticData);
		if (!cursor || cursor.key !== source.key) {
			const startFrom = isoDate(
				this.getNode(),
				this.getNodeParameter('startFrom', ''),
				'Start From',
			);
			if (!startFrom) {
				storeCursor(staticData, await cursorAtLatest(source));
				return null;
			}
			cursor = { key: source.key, floor: startFrom, delivered: [] };
		}
		const max = this.getNodeParameter('maxEventsPerPoll', 1000) as number;
		const started = Date.now();
		// Stop reading at half the engine's budget, so delivering what was read still fits in it.
		const budget = pollBudgetMs(this) / 2;
		const result = await eventsSince(source, cursor, max, () => Date.now() - started >= budget);
		storeCursor(staticData, result.cursor);
		if (!result.events.length) return null;
		// Files are downloaded in what is left of the budget (the rest are reported, not lost).
		return [await eventItems(this, result.events, started + budget * 1.8)];
	}
}

/** The items of the events: entries with their files when Download Files is on. */
async function eventItems(context: IPollFunctions, events: IDataObject[], until?: number) {
	const entries = ENTRY_EVENTS.includes(context.getNodeParameter('event') as string);
	return entries
		? await triggerEntryItems(context, events, until)
		: context.helpers.returnJsonArray(events);
}

/** The engine's time limit for one poll; n8n versions without one get five minutes. */
function pollBudgetMs(context: IPollFunctions): number {
	return typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : 300_000;
}

/** "Fetch Test Event": the newest event, leaving the cursor where it is. */
async function latestEvent(context: IPollFunctions, source: EventSource) {
	const latest = await source.latest();
	if (!latest) {
		throw new NodeOperationError(context.getNode(), 'No event of this kind exists yet', {
			description:
				'Make one happen in Fliplet (or widen the filters), then fetch a test event again.',
		});
	}
	return [await eventItems(context, [latest.event])];
}
