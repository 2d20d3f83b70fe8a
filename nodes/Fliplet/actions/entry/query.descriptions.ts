import type { INodeProperties } from 'n8n-workflow';

import { loadColumns } from '../columnPicker.descriptions';

const DATE_CONDITIONS = ['dateis', 'datebefore', 'dateafter', 'datebetween'];

/** Simple filter rows, shared by Get Many and Delete Many. */
export const filterRowsField: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'fixedCollection',
	placeholder: 'Add Filter',
	default: {},
	typeOptions: { multipleValues: true },
	description:
		'Entries must match every filter. Plain conditions ignore case and compare numbers as numbers; "Exact" conditions compare the stored value as is.',
	options: [
		{
			displayName: 'Filter',
			name: 'conditions',
			values: [
				{
					displayName: 'Column Name or ID',
					name: 'column',
					type: 'options',
					// Filters test the entry's columns only: no entry ID or dates in this list.
					typeOptions: loadColumns('getDataSourceColumns'),
					default: '',
					description:
						'Nested values use a dot, e.g. Address.city. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Condition',
					name: 'condition',
					type: 'options',
					options: [
						{ name: 'Column Exists (True or False)', value: '$exists' },
						{ name: 'Contains (Any Case)', value: 'contains' },
						{ name: 'Date Is', value: 'dateis' },
						{ name: 'Date Is After', value: 'dateafter' },
						{ name: 'Date Is Before', value: 'datebefore' },
						{ name: 'Date Is Between', value: 'datebetween' },
						{ name: 'Equals (Any Case)', value: 'equals' },
						{ name: 'Exact: Equals ($eq)', value: '$eq' },
						{ name: 'Exact: Greater Than ($gt)', value: '$gt' },
						{ name: 'Exact: Greater Than or Equal ($gte)', value: '$gte' },
						{ name: 'Exact: In List ($in, Comma-Separated)', value: '$in' },
						{ name: 'Exact: Less Than ($lt)', value: '$lt' },
						{ name: 'Exact: Less Than or Equal ($lte)', value: '$lte' },
						{ name: 'Exact: Not Equals ($ne)', value: '$ne' },
						{ name: 'Exact: Not In List ($nin, Comma-Separated)', value: '$nin' },
						{ name: 'Greater Than', value: 'gt' },
						{ name: 'Greater Than or Equal', value: 'gte' },
						{ name: 'Is Between (Inclusive)', value: 'between' },
						{ name: 'Is Empty', value: 'empty' },
						{ name: 'Is Not Empty', value: 'notempty' },
						{ name: 'Is One Of (Comma-Separated)', value: 'oneof' },
						{ name: 'Less Than', value: 'lt' },
						{ name: 'Less Than or Equal', value: 'lte' },
						{ name: 'Like, Any Case ($iLike, % Wildcard)', value: '$iLike' },
						{ name: 'Matches Regular Expression', value: '$regex' },
						{ name: 'Not Equals (Any Case)', value: 'notEquals' },
					],
					default: 'equals',
				},
				{
					displayName: 'Date Unit',
					name: 'unit',
					type: 'options',
					options: [
						{ name: 'Day', value: 'day' },
						{ name: 'Hour', value: 'hour' },
						{ name: 'Minute', value: 'minute' },
						{ name: 'Month', value: 'month' },
						{
							name: 'None',
							value: '',
							description: 'Compare with the precision of the value given',
						},
						{ name: 'Quarter', value: 'quarter' },
						{ name: 'Second', value: 'second' },
						{ name: 'Week', value: 'week' },
						{ name: 'Year', value: 'year' },
					],
					default: '',
					description: 'How precisely dates are compared, e.g. Day matches any time of that day',
					displayOptions: { show: { condition: DATE_CONDITIONS } },
				},
				{
					displayName: 'To',
					name: 'valueTo',
					type: 'string',
					default: '',
					placeholder: 'e.g. 40',
					description: 'The upper bound (inclusive)',
					displayOptions: { show: { condition: ['between', 'datebetween'] } },
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. Sales',
					description:
						"Lists are comma-separated. Dates: YYYY-MM-DD, HH:mm or YYYY-MM-DD HH:mm. For 'Between' this is the lower bound.",
				},
			],
		},
	],
};

export const whereJsonField: INodeProperties = {
	displayName: 'Where (JSON)',
	name: 'where',
	type: 'json',
	default: '{}',
	description:
		'Filter on columns with document-database operators ($eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $regex, $iLike, $exists, $and, $or, ...) and the platform\'s "$filters": [{"column", "condition", "value"}]',
	placeholder: '{"Department": "Sales", "Age": {"$gte": 30}}',
};

export const sortField: INodeProperties = {
	displayName: 'Sort',
	name: 'sort',
	type: 'fixedCollection',
	placeholder: 'Add Sort Rule',
	default: {},
	typeOptions: { multipleValues: true },
	description: 'Order of the entries; the first rule wins, later ones break ties',
	options: [
		{
			displayName: 'Rule',
			name: 'property',
			values: [
				{
					displayName: 'Column Name or ID',
					name: 'column',
					type: 'options',
					typeOptions: loadColumns('getDataSourceSortColumns'),
					default: '',
					description:
						'A column, or ID, createdAt, updatedAt or $order (the row order of Fliplet Studio). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Direction',
					name: 'direction',
					type: 'options',
					options: [
						{ name: 'Ascending', value: 'ASC' },
						{ name: 'Descending', value: 'DESC' },
					],
					default: 'ASC',
				},
			],
		},
	],
};
