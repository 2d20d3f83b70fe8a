import type { DiffOptions, InputRows } from '../../nodes/Fliplet/actions/entry/sync/diff';

/** Input rows for the pure planning helpers. */
export const rows = (...datas: object[]): InputRows => datas as InputRows;

/** Diff options keyed on Email, merging, in insert-and-update mode, with `overrides`. */
export const options = (overrides: Partial<DiffOptions> = {}): DiffOptions => ({
	keyColumns: ['Email'],
	ignoreKeyCase: false,
	mode: 'insertAndUpdate',
	merge: true,
	...overrides,
});
