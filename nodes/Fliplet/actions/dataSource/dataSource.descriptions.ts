import type { INodeProperties } from 'n8n-workflow';

import { appLocator } from '../common.descriptions';
import { organizationLocator } from '../organization/organization.descriptions';

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
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. Staff' },
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'e.g. https://api.fliplet.com/v1/data-sources/123',
				hint: 'An address holding the data source ID after "data-sources/"',
			},
		],
		...overrides,
	};
}

const SCOPES = [
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
];

/**
 * Whether a list or a new data source belongs to an app or to the whole organization; a list
 * may also name neither (`withToken`): the data sources of the token, as the platform's sync
 * agent and its Power Automate connector list them.
 */
export const scopeFields = (withToken = false): INodeProperties[] => [
	{
		displayName: 'Scope',
		name: 'scope',
		type: 'options',
		default: 'app',
		options: withToken
			? [
					...SCOPES,
					{
						name: 'All the Token Can Reach',
						value: 'token',
						description:
							"Every data source of the token: its app's for an app API token, its organization's otherwise",
					},
				]
			: SCOPES,
	},
	appLocator({ displayOptions: { show: { scope: ['app'] } } }),
	// Named organizationId (not "organization"): workflows saved with the former text field keep it.
	organizationLocator({
		name: 'organizationId',
		description:
			'The Fliplet organization whose data sources are used. The list shows the organizations of the apps the token can reach.',
		displayOptions: { show: { scope: ['organization'] } },
	}),
];
