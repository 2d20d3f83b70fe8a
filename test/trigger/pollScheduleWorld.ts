/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The world a fault schedule of the polling trigger runs in: one data source of the sandbox, a
// clock the schedule moves, other writers (direct inserts, edits, deletes, inserts from a lagging
// server, and commits over HTTP that stamp their rows when they start and land when released),
// and the history of every entry version that was ever current, to check deliveries against.
import type { Sandbox } from '../harness';
import { startStampedCommit } from '../harness/stampedCommit';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

export const DATA_SOURCE = 101;

export type Write =
	| { kind: 'insert'; count: number }
	| { kind: 'edit'; pick: number }
	| { kind: 'delete'; pick: number }
	| { kind: 'laggingInsert'; lagMs: number }
	| { kind: 'commitStart'; inserts: number; edits: number[] }
	| { kind: 'commitEnd'; pick: number }
	| { kind: 'tick'; ms: number };

/** `id@updatedAt (ms)`: what the trigger promises to deliver once. */
export const versionOf = (entry: { id: unknown; updatedAt: string }) =>
	`${entry.id}@${Date.parse(entry.updatedAt)}`;

type PendingCommit = Awaited<ReturnType<typeof startStampedCommit>>;

export class ScheduleWorld {
	clock = Date.parse('2026-10-01T08:00:00.000Z');
	/** Every version that was current at some point, with its data. */
	readonly versions = new Map<string, unknown>();
	private readonly pending: PendingCommit[] = [];
	private names = 0;

	constructor(private readonly sandbox: Sandbox) {
		sandbox.state.now = () => this.clock;
	}

	/** The versions current now. */
	current(): Set<string> {
		return new Set(store.entriesOf(this.sandbox.state, DATA_SOURCE).map(versionOf));
	}

	/** Records the versions current now (called whenever a write landed). */
	record(): void {
		for (const entry of store.entriesOf(this.sandbox.state, DATA_SOURCE)) {
			this.versions.set(versionOf(entry), entry.data);
		}
	}

	/** Many entries at once (a bulk import), so polls read more than one page. */
	bulkInsert(count: number, spread: boolean): void {
		const entries = Array.from({ length: count }, () => {
			if (spread) this.clock += 1;
			return store.newEntry(this.sandbox.state, { id: DATA_SOURCE }, { Name: this.name() });
		});
		store.appendEntries(this.sandbox.state, DATA_SOURCE, entries);
		this.record();
	}

	async apply(write: Write): Promise<void> {
		// Every write happens at a time of its own, so each change is a new version.
		this.clock += 1;
		const state = this.sandbox.state;
		const entries = store.entriesOf(state, DATA_SOURCE);
		if (write.kind === 'tick') this.clock += write.ms;
		else if (write.kind === 'insert' || write.kind === 'laggingInsert') {
			const count = write.kind === 'insert' ? write.count : 1;
			const at = new Date(this.clock - (write.kind === 'laggingInsert' ? write.lagMs : 0));
			const created = Array.from({ length: count }, () =>
				store.newEntry(state, { id: DATA_SOURCE }, { Name: this.name() }, at.toISOString()),
			);
			store.appendEntries(state, DATA_SOURCE, created);
		} else if (write.kind === 'edit' && entries.length) {
			const entry = entries[write.pick % entries.length];
			const updatedAt = new Date(this.clock).toISOString();
			store.replaceEntry(state, DATA_SOURCE, { ...entry, data: { Name: this.name() }, updatedAt });
		} else if (write.kind === 'delete' && entries.length) {
			store.removeEntries(state, DATA_SOURCE, [entries[write.pick % entries.length].id]);
		} else if (write.kind === 'commitStart') {
			await this.startCommit(write.inserts, write.edits);
		} else if (write.kind === 'commitEnd' && this.pending.length) {
			await this.pending.splice(write.pick % this.pending.length, 1)[0].land();
		}
		this.record();
	}

	/** Releases every commit still open and waits until each has landed (or failed). */
	async endCommits(): Promise<void> {
		for (const commit of this.pending.splice(0)) await commit.land();
		this.record();
	}

	/**
	 * A commit that reads the clock when the sandbox takes it and lands when released (the
	 * sandbox's `stamp-at-start` fault). An entry it edits may be deleted meanwhile: then the
	 * commit fails whole, and stores nothing.
	 */
	private async startCommit(inserts: number, edits: number[]): Promise<void> {
		const entries = store.entriesOf(this.sandbox.state, DATA_SOURCE);
		const edited = entries.length
			? [...new Set(edits.map((pick) => entries[pick % entries.length].id))]
			: [];
		const commit = await startStampedCommit(this.sandbox, DATA_SOURCE, {
			append: true,
			returnEntries: false,
			entries: [
				...Array.from({ length: inserts }, () => ({ data: { Name: this.name() } })),
				...edited.map((id) => ({ id, data: { Name: this.name() } })),
			],
		});
		this.pending.push(commit);
	}

	private name(): string {
		return `v${++this.names}`;
	}
}
