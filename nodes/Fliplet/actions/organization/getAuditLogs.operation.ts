import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { splitList } from '../../helpers/commaList';
import { isObject } from '../../helpers/isObject';
import { jsonField } from '../../helpers/jsonField';
import { maxResults } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItemsToExecutionData } from '../../helpers/mapItems';
import { collectPages, offsetPages, type PageRequest } from '../../transport';
import { appLocator, returnAllOrLimit } from '../common.descriptions';
import {
	AUDIT_LOG_CSV_PAGE_SIZE,
	AUDIT_LOG_PAGE_SIZE,
	auditLogCsvPages,
	auditLogTypes,
	fetchAuditLogs,
	type AnalyticsEvents,
	type AuditLogQuery,
} from './auditLogs';
import { neutralizeFormulaCells, splitCsvRecords } from './csvRecords';
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
			{
				displayName: 'Session ID',
				name: 'sessionId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 7012',
				description: 'Only records of this session (the Session ID column of the audit log screen)',
			},
			startDateField,
			{
				displayName: 'User Type',
				name: 'userType',
				type: 'multiOptions',
				default: [],
				options: [
					{ name: 'Apps and Integrations', value: 'app' },
					{ name: 'App Actions', value: 'appAction' },
					{ name: 'Studio and Viewer Users', value: 'studio' },
				],
				description:
					'Only records made by these kinds of users (the Category of the audit log screen)',
			},
			{
				displayName: 'Where (JSON)',
				name: 'where',
				type: 'json',
				default: '{}',
				placeholder: '{"user": {"email": {"$iLike": "%@example.com"}}}',
				description:
					'A database-style filter, as the audit log screen sends it: on record fields and on joined values such as user.email, app.name and dataString, e.g. {"type": {"$iLike": "%publish%"}}',
			},
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
				placeholder: 'e.g. createdAt, type, user.email, app.name',
				description:
					"Comma-separated fields to return (all record fields when empty). Besides the record's own fields, Fliplet joins user.email, user.type, app.name, typeDescription and dataString (the data as text).",
			},
			{
				displayName: 'Include Total Count',
				name: 'includePagination',
				type: 'boolean',
				default: true,
				description:
					'Whether to output one item holding the records (logs) and the number of all matching records (totalCount), instead of one item per record',
				displayOptions: { show: { '/format': ['json'] } },
			},
			{
				displayName: 'Neutralize Formulas',
				name: 'neutralizeFormulas',
				type: 'boolean',
				default: true,
				description:
					"Whether to put a ' before every cell that starts with =, +, -, @, a tab or a carriage return (plain numbers such as -5 excepted), so a spreadsheet shows it as text instead of running it as a formula. Logged values can come from anyone who uses an app; turn this off only for a file no spreadsheet will open.",
				displayOptions: { show: { '/format': ['csv'] } },
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

function readWhere(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const where = jsonField(this, itemIndex, 'filters.where', 'Where (JSON)');
	if (where === undefined || where === null) return undefined;
	if (!isObject(where)) {
		throw new NodeOperationError(this.getNode(), '"Where (JSON)" must be a JSON object', {
			itemIndex,
			description: 'E.g. {"user": {"email": {"$iLike": "%@example.com"}}}.',
		});
	}
	return Object.keys(where).length ? where : undefined;
}

async function readQuery(this: IExecuteFunctions, itemIndex: number): Promise<AuditLogQuery> {
	const node = this.getNode();
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fields = splitList(options.fields);
	const { startDate, endDate } = isoDateRange(node, filters.startDate, filters.endDate, itemIndex);
	const sessionId = String(filters.sessionId ?? '').trim();
	const userType = (filters.userType as string[] | undefined) ?? [];
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
		sessionId: sessionId ? (/^\d+$/.test(sessionId) ? Number(sessionId) : sessionId) : undefined,
		userType: userType.length ? userType : undefined,
		where: 'where' in filters ? readWhere.call(this, itemIndex) : undefined,
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
	const neutralize = this.getNodeParameter('options.neutralizeFormulas', itemIndex, true) !== false;
	let header: string | undefined;
	const rows: string[] = [];
	// Pages as large as Studio's export asks for (500 after a platform refused more). A page shorter
	// than asked ends the export only when it is also shorter than SPEC's 500: a platform that caps
	// CSV pages at 500 gets asked on.
	const fetchPage = auditLogCsvPages(this, organizationId, query, itemIndex);
	const fetchRows = async (page: PageRequest) => {
		const bytes = await fetchPage(page);
		const records = splitCsvRecords(bytes.toString('utf8'));
		const [first, ...rest] = neutralize ? records.map(neutralizeFormulaCells) : records;
		header ??= first;
		return rest;
	};
	const pages = offsetPages(fetchRows, AUDIT_LOG_CSV_PAGE_SIZE, max, AUDIT_LOG_PAGE_SIZE);
	for await (const { items } of pages) rows.push(...items);
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
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const withCount = options.includePagination === true;
		let totalCount: number | undefined;
		const logs = await collectPages(
			async (page) => {
				const answer = await fetchAuditLogs.call(
					this,
					organizationId,
					withCount ? { ...query, includePagination: true } : query,
					page,
					itemIndex,
				);
				totalCount ??= answer.totalCount;
				return answer.logs;
			},
			max,
			AUDIT_LOG_PAGE_SIZE,
		);
		if (withCount) return [{ json: { totalCount: totalCount ?? null, logs } }];
		return logs.map((json) => ({ json }));
	});
}
