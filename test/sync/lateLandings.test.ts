// The count of what inserts of unknown outcome may still store (LateLandings): a pure helper.
import type { PlannedCommit } from '../../nodes/Fliplet/actions/entry/sync/chunks';
import { LateLandings } from '../../nodes/Fliplet/actions/entry/sync/lateLandings';

const insert = (...inserts: number[]): PlannedCommit => ({
	kind: 'insert',
	idempotent: false,
	updates: [],
	inserts,
	deletes: [],
});

/** Every row's key found on `entries` entries by the check. */
const found = (entries: number) => () => entries;

describe('LateLandings', () => {
	it('a lost commit its read found stored as sent landed: nothing may land again', () => {
		const late = new LateLandings();
		const commit = insert(0, 1);
		late.lost(commit);
		late.read(commit, commit, new Set());
		expect(late.pendingRows()).toEqual([]);
		expect(late.mayBeDoubled(found(1))).toEqual([]);
	});

	it('a lost commit found absent and sent again may make two entries of each row', () => {
		const late = new LateLandings();
		const commit = insert(3, 1);
		late.lost(commit);
		late.read(commit, insert(), new Set([1, 3]));
		late.landed(insert(1, 3));
		expect(late.pendingRows().sort()).toEqual([1, 3]);
		// The check found each key once: the first send may land after the run.
		expect(late.mayBeDoubled(found(1))).toEqual([1, 3]);
		// The check found both: nothing is left to land.
		expect(late.mayBeDoubled(found(2))).toEqual([]);
		// The check failed: it cannot tell.
		expect(late.mayBeDoubled(() => undefined)).toEqual([1, 3]);
	});

	it('a lost commit that stopped the run, never read, makes one entry at most', () => {
		const late = new LateLandings();
		late.lost(insert(0));
		expect(late.pendingRows()).toEqual([0]);
		expect(late.mayBeDoubled(found(0))).toEqual([]);
		expect(late.mayBeDoubled(() => undefined)).toEqual([]);
	});

	it('a commit found in part has not landed: the rows it found (another writer stored them) may be doubled too', () => {
		const late = new LateLandings();
		const commit = insert(0, 1);
		late.lost(commit);
		// Row 0 is stored (not as sent), row 1 is absent and sent again.
		late.read(commit, insert(), new Set([1]));
		late.landed(insert(1));
		expect(late.mayBeDoubled(found(1))).toEqual([0, 1]);
		expect(late.mayBeDoubled(found(2))).toEqual([]);
	});

	it('a re-send lost again: the row may be on as many entries as it was sent', () => {
		const late = new LateLandings();
		const first = insert(0);
		late.lost(first);
		late.read(first, insert(), new Set([0]));
		const again = insert(0);
		late.lost(again);
		late.read(again, insert(), new Set([0]));
		late.landed(insert(0));
		expect(late.mayBeDoubled(found(2))).toEqual([0]);
		expect(late.mayBeDoubled(found(3))).toEqual([]);
	});

	it('rows of commits answered alone are not tracked', () => {
		const late = new LateLandings();
		late.landed(insert(0, 1, 2));
		expect(late.pendingRows()).toEqual([]);
		expect(late.mayBeDoubled(() => undefined)).toEqual([]);
	});
});
