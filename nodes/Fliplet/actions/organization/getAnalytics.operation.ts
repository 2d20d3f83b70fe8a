import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { flattenStats } from './analyticsRows';
import { isoDateRange } from './dates';
import { readOrganizationId } from '../../helpers/organizationId';
import { endDateField, organizationLocator, startDateField } from './organization.descriptions';

const properties: INodeProperties[] = [
	organizationLocator(),
	{
		...startDateField,
		description: 'Start of the period (the API picks its default period when empty)',
	},
	{
		...endDateField,
		description: 'End of the period (the API picks its default period when empty)',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'summary',
		options: [
			{
				name: 'Summary',
				value: 'summary',
				description:
					'One item as the API gives it: sessions per day, organization stats, apps and users',
			},
			{
				name: 'One Item per App',
				value: 'apps',
				description:
					'One flat item per app with its users, sessions, events, devices, updates and publishes (and the previous period)',
			},
			{
				name: 'One Item per User',
				value: 'users',
				description: 'One flat item per Studio user with their sessions, publishes and apps',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['organization'], operation: ['getAnalytics'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const node = this.getNode();
		const organizationId = readOrganizationId.call(this, itemIndex);
		const { startDate, endDate } = isoDateRange(
			node,
			this.getNodeParameter('startDate', itemIndex, ''),
			this.getNodeParameter('endDate', itemIndex, ''),
			itemIndex,
		);
		const period: IDataObject = {};
		if (startDate) period.startDate = startDate;
		if (endDate) period.endDate = endDate;
		// Read with POST and a JSON body, as the platform's JS API does.
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('organizations', organizationId, 'analytics'),
			body: period,
			idempotent: true,
			itemIndex,
		});
		// The documented shape is bare; a body wrapped in `analytics` is accepted too.
		const summary = objectFrom(body, 'analytics');
		const output = this.getNodeParameter('output', itemIndex, 'summary') as string;
		if (output === 'summary') return summary;
		const list = summary[output];
		if (!Array.isArray(list)) {
			throw new NodeOperationError(
				node,
				`Unexpected response from Fliplet: no "${output}" list in it`,
				{
					itemIndex,
					description: 'Choose the "Summary" output to see what the API returned.',
				},
			);
		}
		return (list as IDataObject[]).map((record) => ({ organizationId, ...flattenStats(record) }));
	});
}
