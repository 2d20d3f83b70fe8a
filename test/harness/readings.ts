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
	/** `entry`: hook templates also name `entry`, `dataSource`, `event`; `columns`: columns only. */
	hookTemplates: 'entry' | 'columns';
}

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

/** Both readings of what a hook's templates can name (`{{{entry.id}}}` renders empty in `columns`). */
export const HOOK_TEMPLATE_READINGS: Array<Pick<SandboxReadings, 'hookTemplates'>> = [
	{ hookTemplates: 'entry' },
	{ hookTemplates: 'columns' },
];
