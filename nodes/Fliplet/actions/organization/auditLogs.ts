import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, httpStatusOf } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest, type FlipletContext, type PageRequest } from '../../transport';

/** The types the logs endpoint leaves out unless they are asked for by name. */
export const ANALYTICS_TYPES = [
	'app.analytics.pageView',
	'app.analytics.event',
	'app.view',
	'app.update',
	'studio.analytics.presence',
];

/** The API's maximum `limit` for one page of audit logs as JSON (SPEC). */
export const AUDIT_LOG_PAGE_SIZE = 500;

/**
 * Rows one CSV export request asks for: Fliplet Studio's "Export to CSV" asks for 100,000 in one
 * request (`Fliplet/fliplet-widget-audit-log: src/components/LogTable.vue`).
 */
export const AUDIT_LOG_CSV_PAGE_SIZE = 100_000;

export type AnalyticsEvents = 'exclude' | 'include' | 'only';

export interface AuditLogQuery {
	type?: string[];
	appId?: number;
	sessionId?: number | string;
	userType?: string[];
	where?: IDataObject;
	includePagination?: boolean;
	fields?: string[];
	startDate?: string;
	endDate?: string;
	sort?: 'id' | 'createdAt' | 'type';
	order?: 'ASC' | 'DESC';
	format?: 'json' | 'csv';
}

/**
 * The `type` filter to send. Left out, the API hides the analytics types; it has no "every type"
 * value, so including analytics needs the other types named too.
 */
export function auditLogTypes(
	node: INode,
	chosen: string[],
	analytics: AnalyticsEvents,
	itemIndex?: number,
): string[] | undefined {
	if (analytics === 'only') return [...ANALYTICS_TYPES];
	if (analytics === 'include') {
		if (!chosen.length) {
			throw new NodeOperationError(
				node,
				'Including analytics events needs the other event types named',
				{
					itemIndex,
					description:
						'The Fliplet API returns either every type except analytics (no type filter) or exactly the types it is given. List the event types you want in "Event Types" (e.g. app.publish, user.login), or set "Analytics Events" to "Only Analytics Events".',
				},
			);
		}
		return [...new Set([...chosen, ...ANALYTICS_TYPES])];
	}
	return chosen.length ? chosen : undefined;
}

/**
 * The JSON body of one page. The platform's JS API reads audit logs with POST and a JSON body
 * ("uses POST despite being a read operation"), so lists and `where` travel as JSON.
 */
export function auditLogBody(query: AuditLogQuery, page: PageRequest): IDataObject {
	const body: IDataObject = { offset: page.offset, limit: page.limit };
	for (const [key, value] of Object.entries(query)) {
		if (value !== undefined) body[key] = value as IDataObject[keyof IDataObject];
	}
	return body;
}

/** One page of records, and the number of all matching records when `includePagination` asked. */
export interface AuditLogPage {
	logs: IDataObject[];
	totalCount?: number;
}

export async function fetchAuditLogs(
	this: FlipletContext,
	organizationId: number,
	query: AuditLogQuery,
	page: PageRequest,
	itemIndex?: number,
): Promise<AuditLogPage> {
	const body = await flipletApiRequest.call(this, {
		method: 'POST',
		path: apiPath('organizations', organizationId, 'logs'),
		body: auditLogBody({ ...query, format: 'json' }, page),
		// Reading logs changes nothing, so it may be sent again after a fault.
		idempotent: true,
		itemIndex,
	});
	const logs = listFrom(this.getNode(), body, 'logs', itemIndex);
	const totalCount = (body as IDataObject | undefined)?.totalCount;
	return typeof totalCount === 'number' ? { logs, totalCount } : { logs };
}

async function fetchAuditLogCsvPage(
	this: FlipletContext,
	organizationId: number,
	query: AuditLogQuery,
	page: PageRequest,
	itemIndex?: number,
): Promise<Buffer> {
	const bytes = await flipletApiRequest.call(this, {
		method: 'POST',
		path: apiPath('organizations', organizationId, 'logs'),
		body: auditLogBody({ ...query, format: 'csv' }, page),
		headers: { Accept: 'text/csv' },
		binaryResponse: true,
		idempotent: true,
		itemIndex,
	});
	return bytes as unknown as Buffer;
}

/**
 * Reads the pages of one CSV export, each asked as large as Studio asks (up to
 * AUDIT_LOG_CSV_PAGE_SIZE). SPEC gives 500 as the maximum: a platform that refuses more (a 400 to
 * a larger page) gets that page asked again with 500, and every later page asked with 500.
 */
export function auditLogCsvPages(
	context: FlipletContext,
	organizationId: number,
	query: AuditLogQuery,
	itemIndex?: number,
): (page: PageRequest) => Promise<Buffer> {
	let most = AUDIT_LOG_CSV_PAGE_SIZE;
	const ask = async (page: PageRequest) =>
		await fetchAuditLogCsvPage.call(context, organizationId, query, page, itemIndex);
	return async ({ offset, limit }) => {
		const asked = { offset, limit: Math.min(limit, most) };
		try {
			return await ask(asked);
		} catch (error) {
			if (asked.limit <= AUDIT_LOG_PAGE_SIZE || httpStatusOf(error) !== '400')
				throw asNodeError(context.getNode(), error);
			most = AUDIT_LOG_PAGE_SIZE;
			return await ask({ offset, limit: AUDIT_LOG_PAGE_SIZE });
		}
	};
}
