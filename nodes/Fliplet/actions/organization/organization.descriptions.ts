import type { INodeProperties } from 'n8n-workflow';

export function organizationLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Organization',
		name: 'organization',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'The Fliplet organization. The list shows the organizations of the apps the token can reach; an organization token or an organization admin is needed for audit logs, analytics and tokens.',
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
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[0-9]+$', errorMessage: 'An id is a whole number, e.g. 123' },
					},
				],
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
