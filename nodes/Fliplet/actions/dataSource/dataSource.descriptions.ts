import type { INodeProperties } from 'n8n-workflow';

import { appLocator } from '../common.descriptions';

/** The data source every data source, entry and version operation works on. */
export function dataSourceLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Data Source',
		name: 'dataSource',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The data source (table): pick it, or give its ID or its exact name',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchDataSources', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 123',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[0-9]+$', errorMessage: 'An ID is a whole number, e.g. 123' },
					},
				],
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. Staff' },
		],
		...overrides,
	};
}

/** Whether a list or a new data source belongs to an app or to the whole organization. */
export const scopeFields: INodeProperties[] = [
	{
		displayName: 'Scope',
		name: 'scope',
		type: 'options',
		default: 'app',
		options: [
			{
				name: 'App',
				value: 'app',
				description: 'Data sources of one app (works with app API tokens)',
			},
			{
				name: 'Organization',
				value: 'organization',
				description: 'Data sources of the whole organization (organization or Studio user tokens)',
			},
		],
	},
	appLocator({ displayOptions: { show: { scope: ['app'] } } }),
	{
		displayName: 'Organization ID',
		name: 'organizationId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 123',
		description: 'The ID of the organization',
		displayOptions: { show: { scope: ['organization'] } },
	},
];
