import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE } from './description';
import type { SyncMode } from './diff';
import { parseKeyColumns } from './keys';

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
}

const MODES: SyncMode[] = ['insertAndUpdate', 'insertOnly', 'mirror'];
const HOOKS = ['insert', 'update'];

/** Sync's parameters (one set for the whole run, read from the first item), checked before any request. */
export function readSyncSettings(this: IExecuteFunctions): SyncSettings {
	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex: 0, description });
	const keyColumns = parseKeyColumns(String(this.getNodeParameter('keyColumns', 0, '') ?? ''));
	if (!keyColumns.length) {
		throw fail(
			'No key column given',
			'Set "Key Columns" to the column that identifies a row (e.g. Email), or several separated by commas.',
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
	return {
		keyColumns,
		mode,
		allowEmpty: this.getNodeParameter('allowEmpty', 0, false) as boolean,
		ignoreKeyCase: options.ignoreKeyCase === true,
		merge: (options.updateStyle ?? 'merge') !== 'replace',
		runHooks,
		typecast: options.typecast === true,
		dryRun: options.dryRun === true,
		chunkSize,
		outputRows: options.outputRows === true,
	};
}
