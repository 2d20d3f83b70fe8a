import type { DiffOptions, InputRows, SyncPlan } from '../../nodes/Fliplet/actions/entry/sync/diff';
import { LateLandings } from '../../nodes/Fliplet/actions/entry/sync/lateLandings';
import type { PlanOutcome } from '../../nodes/Fliplet/actions/entry/sync/sendPlan';

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

/** The rows a plan inserts, with their keys and data. */
export const insertsOf = (plan: SyncPlan) =>
	plan.inserts.map((itemIndex) => ({
		itemIndex,
		key: plan.keys[itemIndex],
		data: plan.rows[itemIndex],
	}));

/** The outcome of a plan's commits, with nothing recovered unless given. */
export const planOutcome = (
	outcome: Pick<PlanOutcome, 'landed' | 'landedAt' | 'unknown' | 'unknownAt' | 'newIds'> &
		Partial<PlanOutcome>,
): PlanOutcome => ({
	recovered: { commits: 0, rowsFound: 0, rowsResent: 0 },
	shared: [],
	vanished: [],
	lateLandings: new LateLandings(),
	...outcome,
});
