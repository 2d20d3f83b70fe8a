import type { PlannedCommit } from './chunks';

/** What a run knows of one row sent in an insert commit whose answer was lost. */
interface RowSends {
	/** Entries known to hold its key beside those its lost sends may make. */
	known: number;
	/** Its sends whose outcome is unknown: each may still store the row, now or later. */
	pending: number;
}

/**
 * Inserts of unknown outcome, and what may still land after the run. A commit whose answer was
 * lost (a timeout, a lost connection, a gateway's 502 or 504) may still be running on the server
 * when Sync reads its keys: found absent, its rows are sent again, and the first commit may land
 * later. The API states no time by which a commit has ended and no key that would make a second
 * send harmless, so a run counts, for each row of such a commit, the entries its sends may make,
 * and the check of the keys after the commits tells whether they all landed:
 * - a lost commit whose rows the read after it found stored as sent, every one, landed;
 * - one with a row not found has not landed as a whole (so the rows it found are another
 *   writer's): each of its rows may still get one more entry;
 * - a row whose key the check finds on as many entries as its sends may make has nothing left to
 *   land (the repair keeps one); one found on fewer may be doubled after the run, and is reported.
 * Rows never in a lost commit cost nothing here.
 */
export class LateLandings {
	private readonly rows = new Map<number, RowSends>();

	private of(item: number): RowSends {
		let sends = this.rows.get(item);
		if (!sends) {
			sends = { known: 0, pending: 0 };
			this.rows.set(item, sends);
		}
		return sends;
	}

	/** An insert commit's answer was lost: each of its rows may be stored by it, now or later. */
	lost(commit: PlannedCommit): void {
		for (const item of commit.inserts) this.of(item).pending++;
	}

	/** An insert commit was answered: it stored its rows (those sent before too, if they were lost). */
	landed(commit: PlannedCommit): void {
		// The usual run lost no commit: a first load of a million rows looks nothing up.
		if (!this.rows.size) return;
		for (const item of commit.inserts) {
			const sends = this.rows.get(item);
			if (sends) sends.known++;
		}
	}

	/**
	 * The read after a lost insert commit found the rows `found` stored as sent, and none holding
	 * the keys of `absent`.
	 */
	read(commit: PlannedCommit, found: PlannedCommit, absent: ReadonlySet<number>): void {
		if (found.inserts.length === commit.inserts.length) {
			for (const item of commit.inserts) {
				const sends = this.of(item);
				sends.pending--;
				sends.known++;
			}
			return;
		}
		for (const item of commit.inserts) {
			if (absent.has(item)) continue;
			const sends = this.of(item);
			sends.known = Math.max(sends.known, 1);
		}
	}

	/**
	 * The rows a send of unknown outcome may still store, in any order: the check after the commits
	 * reads their keys, whatever else the run did with them (a row found changed is updated, yet its
	 * lost insert may land).
	 */
	pendingRows(): number[] {
		return [...this.rows].filter(([, sends]) => sends.pending > 0).map(([item]) => item);
	}

	/**
	 * The rows whose key may be on two entries once what is still held lands: each may make more
	 * entries than the check found (`entriesOf`: undefined when the check could not tell), in item
	 * order. A row whose sends may make only one entry is never doubled by this run.
	 */
	mayBeDoubled(entriesOf: (item: number) => number | undefined): number[] {
		const doubled: number[] = [];
		for (const [item, { known, pending }] of this.rows) {
			if (pending <= 0 || known + pending < 2) continue;
			const entries = entriesOf(item);
			if (entries === undefined || entries < known + pending) doubled.push(item);
		}
		return doubled.sort((a, b) => a - b);
	}
}
