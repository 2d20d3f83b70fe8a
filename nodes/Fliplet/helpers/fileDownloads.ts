import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import {
	downloadBinary,
	FileNotFetchedError,
	FileTimedOutError,
	FileTooLargeError,
	type DownloadContext,
} from '../transport';
import { columnList } from './commaList';
import { asNodeError } from './nodeError';

/** What Download Files was asked for. */
export interface DownloadFilesSettings {
	/** The named file columns; undefined: every column with a `<column>MediaFileId` sibling. */
	columns?: string[];
	/** Bytes a file may hold; undefined: no limit. */
	maxBytes?: number;
}

/**
 * What becomes of a file that cannot be downloaded (from a host that is allowed): `throw` stops the
 * item (the action node; Continue On Fail decides the rest), `report` records it in fileDownloads
 * and goes on (the triggers, which must not lose the entry, nor stop at it on every poll).
 */
export type FileFailures = 'throw' | 'report';

/** One line of an item's fileDownloads: a file and what became of it. */
export interface FileDownloadReport extends IDataObject {
	column: string;
	index?: number;
	url?: string;
	status: 'downloaded' | 'skipped' | 'failed';
	binaryProperty?: string;
	reason?: string;
	/** Something to know about a downloaded file (see DEFAULT_IMAGE_SIZE_NOTE). */
	note?: string;
}

/**
 * The note on an image downloaded through the API's contents route without a size: the platform
 * serves it at its default size, which may be smaller than the file stored (see DownloadedFile).
 */
export const DEFAULT_IMAGE_SIZE_NOTE =
	"read through Fliplet's API, an image may come at its default size (xlarge: 1980 px on the smallest side), smaller than the file stored";

/** 100 MB: a photo, a signed PDF or a short video fits; a larger file is reported, not stored. */
export const DEFAULT_MAX_FILE_SIZE_MB = 100;

const SIBLING = 'MediaFileId';
/** Object keys that would reach a prototype if used as a binary property's name. */
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The Download Files settings of the node, or undefined when it is off. `read` is the context's
 * getNodeParameter for the item (the triggers have no items).
 */
export function downloadFilesSettings(
	read: (name: string, fallback: unknown) => unknown,
): DownloadFilesSettings | undefined {
	if (read('downloadFiles', false) !== true) return undefined;
	const columns = columnList(read('fileColumns', []));
	const megabytes = Number(read('maxFileSizeMb', DEFAULT_MAX_FILE_SIZE_MB));
	const maxBytes =
		Number.isFinite(megabytes) && megabytes > 0 ? Math.floor(megabytes * 1024 * 1024) : undefined;
	return { columns: columns.length ? columns : undefined, maxBytes };
}

/** The file columns of an entry's data: the named ones, or those with a MediaFileId sibling. */
function fileColumnsOf(data: IDataObject, named: string[] | undefined): string[] {
	if (named) return named;
	return Object.keys(data)
		.filter((key) => key.length > SIBLING.length && key.endsWith(SIBLING))
		.map((key) => key.slice(0, -SIBLING.length))
		.filter((column) => Object.prototype.hasOwnProperty.call(data, column));
}

/** The files a column holds: one URL, or a list of them (a form's multi-file field). */
function filesIn(value: unknown): { list: boolean; values: unknown[] } {
	if (Array.isArray(value)) return { list: true, values: value };
	return {
		list: false,
		values: value === undefined || value === null || value === '' ? [] : [value],
	};
}

/** A binary property name for the file that no other file of the item has, and that is safe. */
function propertyName(binary: IBinaryKeyData, wanted: string): string {
	let name = UNSAFE_NAMES.has(wanted) ? `file_${wanted}` : wanted;
	for (let n = 1; Object.prototype.hasOwnProperty.call(binary, name); n++) name = `${wanted}_${n}`;
	return name;
}

/** The key the report goes under: fileDownloads, unless the output already has such a field. */
function reportKey(json: IDataObject): string {
	let key = 'fileDownloads';
	while (Object.prototype.hasOwnProperty.call(json, key)) key += '_';
	return key;
}

const describedError = (error: unknown) => {
	const { message, description } = error as { message?: string; description?: string | null };
	return description ? `${message} ${description}` : String(message ?? error);
};

/**
 * The item for an entry with its files downloaded: `json` (the entry as the node outputs it) with
 * `fileDownloads` (each file and what became of it) and a binary property per file. Files are
 * downloaded one at a time, each streamed to n8n's binary data storage (see downloadBinary). A URL
 * on another host is never fetched (reported, left as it is in the entry); a file over the size
 * limit is reported; any other failure follows `failures`. `until` (epoch ms): files not started
 * by then are reported, for a poll that must end in time.
 */
export async function entryWithFiles(
	context: DownloadContext,
	entry: IDataObject,
	json: IDataObject,
	settings: DownloadFilesSettings,
	options: { itemIndex?: number; failures: FileFailures; until?: number },
): Promise<INodeExecutionData> {
	const data = (entry.data && typeof entry.data === 'object' ? entry.data : {}) as IDataObject;
	const binary: IBinaryKeyData = {};
	const report: FileDownloadReport[] = [];
	for (const column of fileColumnsOf(data, settings.columns)) {
		const own = Object.prototype.hasOwnProperty.call(data, column) ? data[column] : undefined;
		const { list, values } = filesIn(own);
		if (!values.length && settings.columns) {
			report.push({ column, status: 'skipped', reason: 'the column holds no file URL' });
		}
		for (const [index, value] of values.entries()) {
			const line: FileDownloadReport = { column, ...(list ? { index } : {}), status: 'skipped' };
			report.push(line);
			if (typeof value !== 'string' || !value.trim()) {
				line.reason = 'the value is not a URL';
				continue;
			}
			line.url = value;
			if (options.until !== undefined && Date.now() >= options.until) {
				line.reason =
					'the poll ran out of time before this file; download it from its URL (e.g. with Entry → Get and Download Files)';
				continue;
			}
			try {
				const stored = await downloadBinary.call(context, {
					url: value,
					itemIndex: options.itemIndex,
					maxBytes: settings.maxBytes,
				});
				const name = propertyName(binary, list ? `${column}_${index}` : column);
				binary[name] = stored.binary;
				Object.assign(line, { status: 'downloaded', binaryProperty: name });
				if (stored.atDefaultImageSize) line.note = DEFAULT_IMAGE_SIZE_NOTE;
			} catch (error) {
				const skipped =
					error instanceof FileNotFetchedError ||
					error instanceof FileTooLargeError ||
					// A trigger skips a file whose host stalls: the entry is delivered, the file noted.
					(error instanceof FileTimedOutError && options.failures === 'report');
				if (skipped) {
					line.reason = error.message.replace(/^The file was not downloaded: /, '');
					continue;
				}
				if (options.failures === 'throw') {
					const failure = asNodeError(context.getNode(), error, options.itemIndex);
					failure.message = `Column "${column}"${list ? ` [${index}]` : ''}: ${failure.message}`;
					throw failure;
				}
				Object.assign(line, { status: 'failed', reason: describedError(error) });
			}
		}
	}
	const item: INodeExecutionData = { json: { ...json, [reportKey(json)]: report } };
	if (Object.keys(binary).length) item.binary = binary;
	return item;
}

/**
 * A trigger's items for the entries it delivers, with their files when Download Files is on: a
 * file that cannot be downloaded is reported in its item's fileDownloads, never a reason to hold
 * the entry back (the polling trigger would meet it again on every poll). `until` as in
 * entryWithFiles. Shared by the polling and the instant trigger.
 */
export async function triggerEntryItems(
	context: IPollFunctions | IWebhookFunctions,
	entries: IDataObject[],
	until?: number,
): Promise<INodeExecutionData[]> {
	const settings = downloadFilesSettings((name, fallback) =>
		context.getNodeParameter(name, fallback),
	);
	if (!settings) return entries.map((json) => ({ json }));
	const items: INodeExecutionData[] = [];
	for (const entry of entries) {
		items.push(
			await entryWithFiles(context, entry, entry, settings, { failures: 'report', until }),
		);
	}
	return items;
}
