import type { INodeProperties } from 'n8n-workflow';

export function appLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'App',
		name: 'app',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'The app. API tokens only reach published apps: pick it from the list, or paste its address in Fliplet Studio "By URL" (the node uses the published app; a Studio address shows the draft\'s ID).',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchApps', searchable: true },
			},
			// No `validation` regex on ID modes: n8n runs it at every workflow start under a 250 ms
			// wall-clock limit that a busy machine can exceed. The node refuses a bad ID itself, per item.
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 12345',
			},
			{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. Staff Directory' },
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'e.g. https://studio.fliplet.com/apps/123/…',
				hint: 'The address of the app in Fliplet Studio: the node uses its published app',
			},
		],
		...overrides,
	};
}

export function returnAllOrLimit(maxValue?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, ...(maxValue ? { maxValue } : {}) },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};
