import type { IPollFunctions } from 'n8n-workflow';

import {
	AUDIT_LOG_PAGE_SIZE,
	fetchAuditLogs,
	type AuditLogQuery,
} from '../../Fliplet/actions/organization/auditLogs';
import { offsetPages, type PageRequest } from '../../Fliplet/transport';
import type { EventSource } from '../cursor';

/** One millisecond earlier, so the API's start bound includes events at the cursor time either way. */
const justBefore = (time: string) => new Date(Date.parse(time) - 1).toISOString();

/** New audit log records of an organization, read oldest first by createdAt. */
export function auditLogSource(
	context: IPollFunctions,
	organizationId: number,
	types: string[] | undefined,
): EventSource {
	const query: AuditLogQuery = { type: types, sort: 'createdAt' };
	return {
		key: `auditLog:${organizationId}:${(types ?? []).join(',')}`,
		timeOf: (event) => String(event.createdAt),
		async latest() {
			const { logs } = await fetchAuditLogs.call(
				context,
				organizationId,
				{ ...query, order: 'DESC' },
				{ offset: 0, limit: 1 },
			);
			return logs[0] && { event: logs[0] };
		},
		async *pages(since) {
			const ascending: AuditLogQuery = {
				...query,
				order: 'ASC',
				startDate: since === undefined ? undefined : justBefore(since),
			};
			// The start date does what an offset hint would. Records are only ever added, at the end
			// of this order, so plain offsets are stable.
			const fetchPage = async (page: PageRequest) =>
				(await fetchAuditLogs.call(context, organizationId, ascending, page)).logs;
			for await (const { offset, items } of offsetPages(fetchPage, AUDIT_LOG_PAGE_SIZE)) {
				yield { offset, events: items };
			}
		},
	};
}
