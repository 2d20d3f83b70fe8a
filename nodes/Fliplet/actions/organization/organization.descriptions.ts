import type { INodeProperties } from 'n8n-workflow';

export function organizationLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Organization',
		name: 'organization',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			"The Fliplet organization. The list shows the organizations of the token's user; an organization token or an organization admin is needed for audit logs, analytics and tokens.",
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchOrganizations', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 123',
			},
		],
		...overrides,
	};
}

export const startDateField: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	default: '',
	description: 'Only include records created at or after this moment',
};

export const endDateField: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'dateTime',
	default: '',
	description: 'Only include records created at or before this moment',
};

export const eventTypesField: INodeProperties = {
	displayName: 'Event Types',
	name: 'eventTypes',
	type: 'string',
	default: '',
	placeholder: 'e.g. app.publish, user.login',
	description:
		'Comma-separated audit log types to return. Empty returns every type except the five analytics types (see Analytics Events).',
};

export const analyticsEventsField: INodeProperties = {
	displayName: 'Analytics Events',
	name: 'analyticsEvents',
	type: 'options',
	default: 'exclude',
	description:
		'The five analytics types (app.analytics.pageView, app.analytics.event, app.view, app.update, studio.analytics.presence) are high-volume and left out by default',
	options: [
		{
			name: 'Exclude',
			value: 'exclude',
			description: 'Leave analytics events out (the API default)',
		},
		{
			name: 'Include',
			value: 'include',
			description: 'Add the analytics types to the listed event types',
		},
		{
			name: 'Only Analytics Events',
			value: 'only',
			description: 'Return only the five analytics types',
		},
	],
};
