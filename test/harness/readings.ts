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
	/** `text`: `oneof` compares trimmed text in any case; `typed`: a text with texts, a number with numbers. */
	oneof: 'text' | 'typed';
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

/** Both readings of `oneof` (Sync's targeted read and its duplicate check rely on it). */
export const ONEOF_READINGS: Array<Pick<SandboxReadings, 'oneof'>> = [
	{ oneof: 'text' },
	{ oneof: 'typed' },
];

/** Every reading a Sync read meets: each of COLUMN_READINGS under each reading of `oneof`. */
export const SYNC_READINGS: Array<Pick<SandboxReadings, 'attributes' | 'where' | 'oneof'>> =
	COLUMN_READINGS.flatMap((columns) => ONEOF_READINGS.map((oneof) => ({ ...columns, ...oneof })));
