import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { columnList } from '../../../helpers/commaList';
import {
	DEFAULT_CHUNK_SIZE,
	DEFAULT_MAX_DELETE_SHARE,
	DEFAULT_MAX_DELETES,
	MAX_CHUNK_SIZE,
} from './description';
import type { SyncMode } from './diff';
import type { ColumnTypes } from './typecast';

export interface SyncSettings {
	keyColumns: string[];
	mode: SyncMode;
	allowEmpty: boolean;
	ignoreKeyCase: boolean;
	merge: boolean;
	runHooks: string[];
	typecast: boolean;
	dryRun: boolean;
	chunkSize: number;
	outputRows: boolean;
	/** A matched row updates its entry only when this column's time is newer than the stored one. */
	timestampColumn?: string;
	/** Rows whose flag in this column is set are deleted (or left out when absent). */
	deleteColumn?: string;
	/** Update every matched row without comparing it with its entry. */
	updateAll: boolean;
	/** Mirror refuses to delete more entries than this (count); none when left out. */
	maxDeletes?: number;
	/** Mirror refuses to delete more than this share (percent) of the entries; none when left out. */
	maxDeleteShare?: number;
	/** See DiffOptions: every entry holding a key is updated (Create or Update, Update). */
	everyMatch?: boolean;
	/** See DiffOptions: rows sharing a key are applied in input order as one write. */
	foldSharedKeys?: boolean;
	/** See DiffOptions: column types known beside the entries read (the column mapper's). */
	columnTypes?: ColumnTypes;
	/** How errors of rows not found name the operation (Sync's Only Update Existing by default). */
	notFoundWords?: NotFoundWords;
}

/**
 * How the errors of rows not found name the operation and what fixes them: Sync's Only Update
 * Existing by default; Update by Columns to Match On gives its own.
 */
export interface NotFoundWords {
	/** What never inserts, e.g. "Only Update Existing". */
	mode: string;
	fix: string;
}

/** How Create or Update and Update by Columns to Match On write their items. */
export interface ColumnsToMatchWrite {
	keyColumns: string[];
	/** Create or Update inserts what no entry holds; Update by Columns to Match On never does. */
	mode: Extract<SyncMode, 'insertAndUpdate' | 'updateOnly'>;
	merge: boolean;
	runHooks: string[];
	ignoreKeyCase: boolean;
	typecast: boolean;
	columnTypes?: ColumnTypes;
	notFoundWords?: NotFoundWords;
}

/**
 * The engine's settings for writing items by their Columns to Match On: every entry holding an
 * item's values there is updated (none is taken for a duplicate to delete), and items sharing
 * them are applied in input order as one write.
 */
export function columnsToMatchSettings(write: ColumnsToMatchWrite): SyncSettings {
	return {
		...write,
		allowEmpty: false,
		dryRun: false,
		chunkSize: DEFAULT_CHUNK_SIZE,
		outputRows: false,
		updateAll: false,
		everyMatch: true,
		foldSharedKeys: true,
	};
}

/** A column option: trimmed, undefined when empty. */
const columnOption = (value: unknown) => {
	const text = typeof value === 'string' ? value.trim() : '';
	return text === '' ? undefined : text;
};

const MODES: SyncMode[] = ['insertAndUpdate', 'insertOnly', 'updateOnly', 'mirror'];
const HOOKS = ['insert', 'update'];

/**
 * A Mirror delete limit: its field (shown under Mirror, on by default), or the option of the same
 * name where workflows set it before it became a field, when the field was left at its default.
 * Outside Mirror the field is not shown and the limit is its default (nothing is deleted there).
 */
function deleteLimit(
	this: IExecuteFunctions,
	name: 'maxDeletes' | 'maxDeleteShare',
	fallback: number,
	options: IDataObject,
): number {
	const field = this.getNodeParameter(name, 0, fallback) as unknown;
	const earlier = options[name];
	const chosen = field === fallback && earlier !== undefined && earlier !== '' ? earlier : field;
	return typeof chosen === 'number' ? chosen : Number(chosen);
}

/** Sync's parameters (one set for the whole run, read from the first item), checked before any request. */
export function readSyncSettings(this: IExecuteFunctions): SyncSettings {
	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex: 0, description });
	// A list from the picker, or the comma-separated text of workflows saved before it.
	const keyColumns = columnList(this.getNodeParameter('keyColumns', 0, []));
	if (!keyColumns.length) {
		throw fail(
			'No key column given',
			'Pick in "Key Columns" the column that identifies a row (e.g. Email), or several.',
		);
	}
	const mode = this.getNodeParameter('syncMode', 0, 'insertAndUpdate') as SyncMode;
	if (!MODES.includes(mode))
		throw fail(`Unknown sync mode "${mode}"`, `Choose one of: ${MODES.join(', ')}.`);
	const options = this.getNodeParameter('syncOptions', 0, {}) as IDataObject;
	const chunkSize = Number(options.chunkSize ?? DEFAULT_CHUNK_SIZE);
	if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
		throw fail(
			`Chunk size ${String(options.chunkSize)} is not allowed`,
			`Give a whole number from 1 to ${MAX_CHUNK_SIZE}.`,
		);
	}
	const runHooks = (options.runHooks as string[] | undefined) ?? [];
	const unknownHook = runHooks.find((hook) => !HOOKS.includes(hook));
	if (unknownHook !== undefined)
		throw fail(`Unknown hook kind "${unknownHook}"`, 'Run Hooks takes "insert" and/or "update".');
	const maxDeletes = deleteLimit.call(this, 'maxDeletes', DEFAULT_MAX_DELETES, options);
	if (!Number.isInteger(maxDeletes) || maxDeletes < 0)
		throw fail(
			`Max Deletes ${String(maxDeletes)} is not allowed`,
			'Give a whole number of entries (0 or more).',
		);
	const maxDeleteShare = deleteLimit.call(
		this,
		'maxDeleteShare',
		DEFAULT_MAX_DELETE_SHARE,
		options,
	);
	if (!(maxDeleteShare >= 0 && maxDeleteShare <= 100))
		throw fail(
			`Max Deletes (%) ${String(maxDeleteShare)} is not allowed`,
			'Give a percentage from 0 to 100.',
		);
	const timestampColumn = columnOption(options.timestampColumn);
	const deleteColumn = columnOption(options.deleteColumn);
	if (keyColumns.some((column) => column === deleteColumn))
		throw fail(
			`"${deleteColumn}" is both a key column and the delete flag column`,
			'The delete flag column says whether the row with that key should go: pick another column.',
		);
	return {
		timestampColumn,
		deleteColumn,
		updateAll: options.updateAll === true,
		maxDeletes,
		maxDeleteShare,
		keyColumns,
		mode,
		allowEmpty: this.getNodeParameter('allowEmpty', 0, false) as boolean,
		ignoreKeyCase: options.ignoreKeyCase === true,
		merge: options.updateStyle !== 'replace',
		runHooks,
		typecast: options.typecast === true,
		dryRun: options.dryRun === true,
		chunkSize,
		outputRows: options.outputRows === true,
	};
}
