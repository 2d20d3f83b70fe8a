import type { INodeProperties } from 'n8n-workflow';

export const entryIdField: INodeProperties = {
	displayName: 'Entry ID',
	name: 'entryId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 4567',
	description: 'The ID of the entry (row), as Get Many returns it',
};

/** Columns to write, mapped one by one or taken from all fields of the input item. */
export const entryColumnsField: INodeProperties = {
	displayName: 'Columns',
	name: 'columns',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'defineBelow', value: null },
	required: true,
	description:
		'The values to write per column. "Map Automatically" writes every field of the input item as a column of the same name.',
	typeOptions: {
		loadOptionsDependsOn: ['dataSource.value'],
		resourceMapper: {
			resourceMapperMethod: 'getDataSourceColumnsMapping',
			mode: 'add',
			fieldWords: { singular: 'column', plural: 'columns' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
		},
	},
};

/**
 * Columns to write, with the Columns to Match On picked among them (n8n's resource mapper in
 * `upsert` or `update` mode, as Google Sheets' and Airtable's upserts; the picks are stored in the
 * mapper's value as `matchingColumns`). Several columns may be picked: an entry matches when it
 * holds the item's values in all of them.
 */
export function entryColumnsToMatchField(
	mode: 'upsert' | 'update',
	description: string,
): INodeProperties {
	return {
		...entryColumnsField,
		description,
		typeOptions: {
			loadOptionsDependsOn: ['dataSource.value'],
			resourceMapper: {
				resourceMapperMethod: 'getDataSourceColumnsToMatch',
				mode,
				fieldWords: { singular: 'column', plural: 'columns' },
				addAllFields: true,
				multiKeyMatch: true,
				supportAutoMap: true,
			},
		},
	};
}

/** Binary files of the input item uploaded with a Create or onto an entry with an Update. */
export function entryFilesField(description: string): INodeProperties {
	return {
		displayName: 'Files',
		name: 'files',
		type: 'fixedCollection',
		placeholder: 'Add File',
		default: {},
		typeOptions: { multipleValues: true },
		description,
		options: [
			{
				displayName: 'File',
				name: 'file',
				values: [
					{
						displayName: 'Column',
						name: 'column',
						type: 'string',
						default: '',
						placeholder: 'e.g. Photo',
						description: 'The column that will hold the URL of the uploaded file',
					},
					{
						displayName: 'Input Binary Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						placeholder: 'e.g. data',
						hint: 'The name of the input binary field containing the file to upload',
					},
				],
			},
		],
	};
}

/** How entries are output: the API's entry shape (default) or the columns alone. */
export const entryOutputField: INodeProperties = {
	displayName: 'Output',
	name: 'entryOutput',
	type: 'options',
	default: 'entry',
	options: [
		{
			name: 'Entry',
			value: 'entry',
			description:
				'Each entry as the API returns it: ID, dataSourceId, createdAt, updatedAt, and the columns under data (a column named ID stays there)',
		},
		{
			name: 'Columns Only',
			value: 'columns',
			description:
				"Each entry's columns alone (its data), e.g. to write to a spreadsheet; the entry's own ID and dates are left out",
		},
	],
	description: 'What each output item holds',
};

/**
 * What n8n's writes never run: the email a form built in Fliplet's form builder sends on submit or
 * edit is a hook limited to that form's own saves (its `triggers` name the form, and the form
 * writes with its `source`); a write from the API names no form (docs/api-choices.md).
 */
export const FORM_EMAILS_NOT_SENT =
	"The email a form sends when it is submitted or edited is not sent: Fliplet sends it only for that form's own saves.";

/** What the data source's hooks do when they run, for the Run Hooks texts. */
export const HOOK_KINDS =
	"web calls (e.g. the Fliplet Instant Trigger's), emails, SMS, pushes and operations such as hashing a password column";

/**
 * Ignore Fields (as Airtable's): input fields Map Automatically leaves out, read by getEntryData.
 * Shown only with Map Automatically, the one mode that takes every field.
 */
export const ignoreFieldsOption: INodeProperties = {
	displayName: 'Ignore Fields',
	name: 'ignoreFields',
	type: 'string',
	requiresDataPath: 'multiple',
	default: '',
	placeholder: 'e.g. createdAt, updatedAt',
	displayOptions: { show: { '/columns.mappingMode': ['autoMapInputData'] } },
	description:
		'Fields of the input items not to write, comma-separated. Map Automatically writes every other field as a column.',
};

/**
 * The Options of a write with the column mapper; shown with Map Automatically, where they apply.
 * The rule names the mapper's mode from the root ('/'): n8n 1.x orders top-level parameters by
 * the names their rules use and stops with "Max iterations reached" on a dotted name it cannot find.
 */
export const entryWriteOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { '/columns.mappingMode': ['autoMapInputData'] } },
	options: [ignoreFieldsOption],
};

/**
 * Update Mode of the writes that update entries they found (Update, Create or Update): Merge
 * Columns (the default, as an app updates) or Replace Entry, each described for its operation.
 */
export function updateModeField(texts: {
	merge: string;
	replace: string;
	description?: string;
}): INodeProperties {
	return {
		displayName: 'Update Mode',
		name: 'updateMode',
		type: 'options',
		default: 'merge',
		options: [
			{ name: 'Merge Columns', value: 'merge', description: texts.merge },
			{ name: 'Replace Entry', value: 'replace', description: texts.replace },
		],
		...(texts.description === undefined ? {} : { description: texts.description }),
	};
}

/** The Run Hooks option of Commit and Sync: which of the data source's hooks run. */
export function runHooksOption(description: string): INodeProperties {
	return {
		displayName: 'Run Hooks',
		name: 'runHooks',
		type: 'multiOptions',
		default: [],
		options: [
			{ name: 'Insert', value: 'insert' },
			{ name: 'Update', value: 'update' },
		],
		description,
	};
}

/**
 * The Typecast option of Sync and Create or Update. Off, text is typed by the column it goes into
 * (see sync/typecast.ts); on, every text that is exactly a number or a boolean is converted.
 */
export const typecastOption: INodeProperties = {
	displayName: 'Typecast All Number and Boolean Text',
	name: 'typecast',
	type: 'boolean',
	default: false,
	description:
		'Whether to turn all text such as "42", "-3.5", "TRUE" or "false" into numbers and booleans, whatever the column holds (e.g. a first load into an empty data source). Off, a spreadsheet\'s text follows the column: text equal to what is stored once typed ("34" for 34) changes nothing, and new text becomes a number or boolean only in a column that holds numbers or booleans. Text that would change when converted ("007", "1e5", long IDs) always stays text.',
};
