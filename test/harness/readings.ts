/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { Sandbox } from './sandbox';

const sandboxModule = require('../../sandbox');

/**
 * The sandbox's readings of what the platform's own sources disagree on (docs/sandbox.md,
 * "Disputed readings"). A reset brings the defaults back.
 */
export interface SandboxReadings {
	/** `prefixed`: `id`, `data.Name` (SPEC); `bare`: column names picked off data. */
	attributes: 'prefixed' | 'bare';
	/** `bare`: keys are columns; `prefixed`: `data.Name` and the entry's fields address the entry. */
	where: 'bare' | 'prefixed';
	/** `count`: `{deletedCount}` (SPEC); `entries`: the deleted entries. */
	deleteAnswer: 'count' | 'entries';
	/** `ignored`: attributes in the other reading's form pick nothing; `refused`: they are a 400. */
	foreignAttributes: 'ignored' | 'refused';
	/** `either`: the trash list answers with or without the trailing slash; `slashOnly`: only `deleted/`. */
	deletedListPath: 'either' | 'slashOnly';
	/** A notification update without `status`: `draft` (SPEC) or `kept` (the editor's notes). */
	updateStatus: 'draft' | 'kept';
	/** A notification update without `orderAt`: `now` (SPEC) or `kept`. */
	updateOrderAt: 'now' | 'kept';
	/** The most audit logs a request may ask for: `studio` (CSV up to 100,000), `capped` or `refused` (500). */
	auditLogLimit: 'studio' | 'capped' | 'refused';
	/** `entry`: hook templates also name `entry`, `dataSource`, `event`; `columns`: columns only. */
	hookTemplates: 'entry' | 'columns';
	/** `text`: `oneof` compares trimmed text in any case; `typed`: a text with texts, a number with numbers. */
	oneof: 'text' | 'typed';
	/** `stream`: the contents route answers a file's bytes; `redirect`: a public file goes to its CDN address. */
	mediaContents: 'stream' | 'redirect';
	/** `folderAlone`: a folder lists by its id; `withOrganization`: its organization must come too. */
	mediaFolderList: 'folderAlone' | 'withOrganization';
	/** `location`: an app's or organization's media list holds its root; `belowRoot`: all below it too. */
	mediaList: 'location' | 'belowRoot';
	/** The field a folder names its parent by: `parentId` (the REST docs) or `parentFolderId`. */
	mediaFolderParent: 'parentId' | 'parentFolderId';
	/** An image read by its contents without `size`: `xlarge` (the docs' default) or `original`. */
	contentsImageSize: 'xlarge' | 'original';
	/** `any`: non-string hook values are kept; `strict`: every value compiles as a template or the hook fails. */
	hookValues: 'any' | 'strict';
	/** A data source list without app or organization: `own` (the token's) or `contextRequired` (SPEC: 400). */
	dataSourceList: 'own' | 'contextRequired';
}

/** The readings a reset brings back: the first choice of each. */
export const DEFAULT_READINGS: SandboxReadings = Object.fromEntries(
	Object.entries(sandboxModule.READINGS as Record<string, string[]>).map(([name, choices]) => [
		name,
		choices[0],
	]),
) as unknown as SandboxReadings;

export function setSandboxReadings(
	sandbox: Sandbox,
	readings: Partial<SandboxReadings>,
): SandboxReadings {
	return sandboxModule.setReadings(sandbox.state, readings);
}

/**
 * Each reading of `attributes` and `where` the evidence allows, for `describe.each`: every
 * combination, so a test run under them meets each form the node may send.
 */
export const COLUMN_READINGS: Array<Pick<SandboxReadings, 'attributes' | 'where'>> = [
	{ attributes: 'prefixed', where: 'bare' },
	{ attributes: 'bare', where: 'bare' },
	{ attributes: 'prefixed', where: 'prefixed' },
	{ attributes: 'bare', where: 'prefixed' },
];

/** Both readings of a delete query's answer. */
export const DELETE_READINGS: Array<Pick<SandboxReadings, 'deleteAnswer'>> = [
	{ deleteAnswer: 'count' },
	{ deleteAnswer: 'entries' },
];

/** Both readings of what `attributes` in the other reading's form do, with each reading of `attributes`. */
export const FOREIGN_ATTRIBUTE_READINGS: Array<
	Pick<SandboxReadings, 'attributes' | 'foreignAttributes'>
> = [
	{ attributes: 'prefixed', foreignAttributes: 'ignored' },
	{ attributes: 'prefixed', foreignAttributes: 'refused' },
	{ attributes: 'bare', foreignAttributes: 'ignored' },
	{ attributes: 'bare', foreignAttributes: 'refused' },
];

/** Every reading of what a notification update without `status` or `orderAt` sets. */
export const NOTIFICATION_UPDATE_READINGS: Array<
	Pick<SandboxReadings, 'updateStatus' | 'updateOrderAt'>
> = [
	{ updateStatus: 'draft', updateOrderAt: 'now' },
	{ updateStatus: 'kept', updateOrderAt: 'kept' },
	{ updateStatus: 'kept', updateOrderAt: 'now' },
	{ updateStatus: 'draft', updateOrderAt: 'kept' },
];

/**
 * The readings of what a hook's templates can name (`{{{entry.id}}}` renders empty in `columns`)
 * and of how its values are read (`strict`: a value that is not a string, or a name the entry does
 * not hold, stops the hook), from the most lenient to the strictest.
 */
export const HOOK_TEMPLATE_READINGS: Array<Pick<SandboxReadings, 'hookTemplates' | 'hookValues'>> =
	[
		{ hookTemplates: 'entry', hookValues: 'any' },
		{ hookTemplates: 'columns', hookValues: 'any' },
		{ hookTemplates: 'columns', hookValues: 'strict' },
	];

/**
 * Both readings of what an app's or an organization's media list holds, the one that holds what
 * is below the root with each name of a folder's parent field (the filter reads the parent).
 */
export const MEDIA_LIST_READINGS: Array<Pick<SandboxReadings, 'mediaList' | 'mediaFolderParent'>> =
	[
		{ mediaList: 'location', mediaFolderParent: 'parentId' },
		{ mediaList: 'belowRoot', mediaFolderParent: 'parentId' },
		{ mediaList: 'belowRoot', mediaFolderParent: 'parentFolderId' },
	];

/** Both readings of `oneof` (Sync's targeted read and its duplicate check rely on it). */
export const ONEOF_READINGS: Array<Pick<SandboxReadings, 'oneof'>> = [
	{ oneof: 'text' },
	{ oneof: 'typed' },
];

/** Every reading a Sync read meets: each of COLUMN_READINGS under each reading of `oneof`. */
export const SYNC_READINGS: Array<Pick<SandboxReadings, 'attributes' | 'where' | 'oneof'>> =
	COLUMN_READINGS.flatMap((columns) => ONEOF_READINGS.map((oneof) => ({ ...columns, ...oneof })));
