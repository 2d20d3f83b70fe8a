import type { INodeParameterResourceLocator, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { auditLogTypes, type AnalyticsEvents } from '../../Fliplet/actions/organization/auditLogs';
import { getDataSourceTarget } from '../../Fliplet/helpers/dataSourceTarget';
import { organizationIdFrom } from '../../Fliplet/helpers/organizationId';
import { splitList } from '../../Fliplet/helpers/commaList';
import { getAppId } from '../../Fliplet/helpers/locators';
import type { EventSource } from '../cursor';
import { auditLogSource } from './auditLogs';
import { dataSourceEntrySource } from './dataSourceEntries';
import { notificationSource } from './notifications';

/** The event source the trigger's parameters describe. */
export async function eventSource(context: IPollFunctions): Promise<EventSource> {
	const node = context.getNode();
	const event = context.getNodeParameter('event') as string;
	if (event === 'auditLog') {
		const organizationId = organizationIdFrom(
			node,
			context.getNodeParameter('organization') as INodeParameterResourceLocator,
		);
		const types = auditLogTypes(
			node,
			splitList(context.getNodeParameter('eventTypes', '')),
			context.getNodeParameter('analyticsEvents', 'exclude') as AnalyticsEvents,
		);
		return auditLogSource(context, organizationId, types);
	}
	if (event === 'newNotification') {
		const appId = await getAppId.call(context, 0);
		return notificationSource(context, appId);
	}
	if (event === 'newEntry' || event === 'newOrUpdatedEntry') {
		const target = getDataSourceTarget.call(context, 0);
		return dataSourceEntrySource(context, target, event === 'newEntry' ? 'createdAt' : 'updatedAt');
	}
	throw new NodeOperationError(node, `The event "${event}" is not supported`, {
		description: 'Pick one of the events in "Trigger On".',
	});
}
