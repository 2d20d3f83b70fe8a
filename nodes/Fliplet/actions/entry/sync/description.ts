import type { INodeProperties } from 'n8n-workflow';

import { columnPicker } from '../../columnPicker.descriptions';
import {
	FORM_EMAILS_NOT_SENT,
	HOOK_KINDS,
	runHooksOption,
	typecastOption,
} from '../entry.descriptions';

export const DEFAULT_CHUNK_SIZE = 10_000;
export const MAX_CHUNK_SIZE = 50_000;
/** Mirror's delete limits by default (docs/sync.md says why these numbers). */
export const DEFAULT_MAX_DELETES = 100;
export const DEFAULT_MAX_DELETE_SHARE = 50;

/** Shows a Sync option in every mode but Only Insert New (it is about updating entries). */
const notInsertOnly = { hide: { '/syncMode': ['insertOnly'] } };

/** The Sync operation's own fields (the data source locator comes first, from the resource). */
export const syncFields: INodeProperties[] = [
	columnPicker({
		displayName: 'Key Columns',
		name: 'keyColumns',
		multiple: true,
		required: true,
		description:
			'Column(s) that identify a row, e.g. Email, or First Name and Last Name. Input rows and entries with the same key values are the same record. Rows without a key or with a key used twice are skipped and listed in the summary.',
	}),
	{
		displayName: 'Mode',
		name: 'syncMode',
		type: 'options',
		default: 'insertAndUpdate',
		options: [
			{
				name: 'Insert New and Update Changed',
				value: 'insertAndUpdate',
				description: 'Add rows whose key is new, update entries whose row changed; never delete',
			},
			{
				name: 'Mirror (Also Delete Missing)',
				value: 'mirror',
				description:
					'As above, then delete entries whose key is not in the input, so the data source equals the input',
			},
			{
				name: 'Only Insert New',
				value: 'insertOnly',
				description: 'Add rows whose key is new; leave existing entries untouched',
			},
			{
				name: 'Only Update Existing',
				value: 'updateOnly',
				description:
					'Update entries whose key is in the input; never insert. A row whose key no entry has is an error (with Continue On Fail, an error item of its own).',
			},
		],
		description: 'How the data source is made to match the input rows',
	},
	{
		displayName: 'Allow Emptying the Data Source',
		name: 'allowEmpty',
		type: 'boolean',
		default: false,
		displayOptions: { show: { syncMode: ['mirror'] } },
		description:
			'Whether Mirror may delete every existing entry (an empty input, or no key matching any entry). Off, Sync refuses instead: that usually means a wrong key column or an empty sheet.',
	},
	{
		displayName: 'Max Deletes (Entries)',
		name: 'maxDeletes',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: DEFAULT_MAX_DELETES,
		displayOptions: { show: { syncMode: ['mirror'] } },
		description:
			'Refuse the run, changing nothing, when Mirror would delete more entries than this (e.g. after a filter upstream or a sheet that lost rows). The error says how many would go. Rows flagged in Delete Flag Column do not count.',
	},
	{
		displayName: 'Max Deletes (% of Entries)',
		name: 'maxDeleteShare',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: DEFAULT_MAX_DELETE_SHARE,
		displayOptions: { show: { syncMode: ['mirror'] } },
		description:
			'Refuse the run, changing nothing, when Mirror would delete more than this share of the existing entries. 100 allows any share.',
	},
	{
		displayName: 'Options',
		name: 'syncOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Chunk Size',
				name: 'chunkSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CHUNK_SIZE },
				default: DEFAULT_CHUNK_SIZE,
				description:
					'Most rows sent per request (each request also stays under 16 MB). Fewer requests are faster and stay further below the rate limit; smaller ones fail in smaller pieces.',
			},
			columnPicker({
				displayName: 'Delete Flag Column',
				name: 'deleteColumn',
				description:
					'A column that marks rows to remove: a row whose value there is true, 1, "true", "yes" or "1" (any case) has its entry deleted, or is left out when the data source has no entry with its key. Other rows sync as usual.',
			}),
			{
				displayName: 'Dry Run',
				name: 'dryRun',
				type: 'boolean',
				default: false,
				description:
					'Whether to only read the data source and report what would be inserted, updated and deleted, sending no change',
			},
			{
				displayName: 'Ignore Key Case',
				name: 'ignoreKeyCase',
				type: 'boolean',
				default: false,
				description: 'Whether keys that differ only in upper/lower case (e.g. emails) match',
			},
			// Before Max Deletes became fields, workflows set them here: kept (never shown) so that
			// such a workflow keeps its limits (see readSyncSettings).
			{
				displayName: 'Max Deletes (% of Entries)',
				name: 'maxDeleteShare',
				type: 'hidden',
				default: '',
			},
			{ displayName: 'Max Deletes (Entries)', name: 'maxDeletes', type: 'hidden', default: '' },
			{
				displayName: 'Output Changed Rows',
				name: 'outputRows',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item per inserted, updated or deleted row (with its entry ID) after the summary item',
			},
			runHooksOption(
				`Which of the data source's hooks run for the rows Sync inserts or updates: ${HOOK_KINDS}. None by default: a sync of thousands of rows would send thousands of emails or calls. ${FORM_EMAILS_NOT_SENT}`,
			),
			columnPicker({
				displayName: 'Timestamp Column',
				name: 'timestampColumn',
				displayOptions: notInsertOnly,
				description:
					'A column holding when each row last changed (a date or a number): a matched row updates its entry only when its time is newer than the stored one, so an older copy never overwrites newer data. Rows without a readable time there are skipped and listed.',
			}),
			typecastOption,
			{
				displayName: 'Update Every Matched Row',
				name: 'updateAll',
				type: 'boolean',
				default: false,
				displayOptions: notInsertOnly,
				description:
					'Whether to update every entry whose key is in the input without comparing, e.g. so that its update hooks run. Off, only the rows that changed are written.',
			},
			{
				displayName: 'Update Style',
				name: 'updateStyle',
				type: 'options',
				default: 'merge',
				displayOptions: notInsertOnly,
				options: [
					{
						name: 'Merge Columns',
						value: 'merge',
						description: "Change the row's columns and keep the entry's other columns",
					},
					{
						name: 'Replace Row Data',
						value: 'replace',
						description:
							"The entry's data becomes exactly the row; columns not in the row are removed",
					},
				],
				description: 'How a changed row updates its entry',
			},
		],
	},
];
