import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { splitList } from '../../helpers/commaList';
import { maxResults } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItemsToExecutionData } from '../../helpers/mapItems';
import { collectPages } from '../../transport';
import { appLocator, returnAllOrLimit } from '../common.descriptions';
import {
	AUDIT_LOG_PAGE_SIZE,
	auditLogTypes,
	fetchAuditLogCsvPage,
	fetchAuditLogPage,
	type AnalyticsEvents,
	type AuditLogQuery,
} from './auditLogs';
import { splitCsvRecords } from './csvRecords';
import { isoDateRange } from './dates';
import { readOrganizationId } from '../../helpers/organizationId';
import {
	analyticsEventsField,
	endDateField,
	eventTypesField,
	organizationLocator,
	startDateField,
} from './organization.descriptions';

const properties: INodeProperties[] = [
	organizationLocator(),
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'json',
		options: [
			{ name: 'JSON', value: 'json', description: 'One output item per log record' },
			{
				name: 'CSV File',
				value: 'csv',
				description:
					'One output item holding a CSV file of the records (up to Limit, or all with Return All)',
			},
		],
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		description: 'The binary field the CSV file is written to',
		displayOptions: { show: { format: ['csv'] } },
	},
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			analyticsEventsField,
			appLocator({ required: false, description: 'Only records of this app' }),
			endDateField,
			eventTypesField,
			startDateField,
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Fields',
				name: 'fields',
				type: 'string',
				default: '',
				placeholder: 'e.g. type, createdAt, userId, data',
				description: 'Comma-separated record fields to return (all when empty)',
			},
			{
				displayName: 'Sort By',
				name: 'sort',
				type: 'options',
				default: 'createdAt',
				options: [
					{ name: 'Created At', value: 'createdAt' },
					{ name: 'ID', value: 'id' },
					{ name: 'Type', value: 'type' },
				],
			},
			{
				displayName: 'Order',
				name: 'order',
				type: 'options',
				default: 'DESC',
				options: [
					{ name: 'Descending (Newest First)', value: 'DESC' },
					{ name: 'Ascending (Oldest First)', value: 'ASC' },
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organization'], operation: ['getAuditLogs'] } },
	properties,
);

function hasLocatorValue(value: unknown): boolean {
	const raw = typeof value === 'object' && value !== null ? (value as IDataObject).value : value;
	return String(raw ?? '').trim() !== '';
}

async function readQuery(this: IExecuteFunctions, itemIndex: number): Promise<AuditLogQuery> {
	const node = this.getNode();
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = splitList(options.fields);
	const { startDate, endDate } = isoDateRange(node, filters.startDate, filters.endDate, itemIndex);
	return {
		type: auditLogTypes(
			node,
			splitList(filters.eventTypes),
			(filters.analyticsEvents as AnalyticsEvents) ?? 'exclude',
			itemIndex,
		),
		appId: hasLocatorValue(filters.app)
			? await getAppId.call(this, itemIndex, 'filters.app')
			: undefined,
		fields: fields.length ? fields : undefined,
		startDate,
		endDate,
		sort: options.sort as AuditLogQuery['sort'],
		order: options.order as AuditLogQuery['order'],
	};
}

async function csvExport(
	this: IExecuteFunctions,
	organizationId: number,
	query: AuditLogQuery,
	max: number,
	itemIndex: number,
): Promise<INodeExecutionData> {
	let header: string | undefined;
	const rows = await collectPages<string>(
		async (page) => {
			const bytes = await fetchAuditLogCsvPage.call(this, organizationId, query, page, itemIndex);
			const [first, ...records] = splitCsvRecords(bytes.toString('utf8'));
			header ??= first;
			return records;
		},
		max,
		AUDIT_LOG_PAGE_SIZE,
	);
	const csv = [header ?? '', ...rows].join('\r\n') + '\r\n';
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const file = await this.helpers.prepareBinaryData(
		Buffer.from(csv, 'utf8'),
		`organization-${organizationId}-audit-logs.csv`,
		'text/csv',
	);
	return {
		json: { organizationId, format: 'csv', records: rows.length },
		binary: { [binaryPropertyName]: file },
	};
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsToExecutionData.call(this, items, async (itemIndex) => {
		const organizationId = readOrganizationId.call(this, itemIndex);
		const query = await readQuery.call(this, itemIndex);
		const max = maxResults.call(this, itemIndex);
		if (this.getNodeParameter('format', itemIndex, 'json') === 'csv') {
			return [await csvExport.call(this, organizationId, query, max, itemIndex)];
		}
		const logs = await collectPages(
			async (page) => await fetchAuditLogPage.call(this, organizationId, query, page, itemIndex),
			max,
			AUDIT_LOG_PAGE_SIZE,
		);
		return logs.map((json) => ({ json }));
	});
}
