import type { IDataObject } from 'n8n-workflow';

import { keepNewest, LATE_BY_MS, versionKey } from '../Fliplet/helpers/deliveredVersions';
import type { HookEvent } from './hookList';

/** The most entry versions an activation remembers (about 10 KB of static data). */
export const MAX_RUNS_REMEMBERED = 500;

/** What an activation remembers of the runs it started (in the workflow's static data). */
export interface RunMemory extends IDataObject {
	/** ISO time: an entry last changed before it starts no run. */
	floor?: string;
	/** `id@time` of the entry versions that started a run at or after the floor. */
	started?: string[];
}

/** `stale`: the version is older than the hook, or than every run still remembered. */
export type CallVerdict = 'run' | 'unchanged' | 'stale';

/**
 * Where a new activation's memory starts: the moment the hook was stored, by the platform's clock,
 * less LATE_BY_MS, so a change made on a server whose clock lags, or by a commit that began just
 * before, still runs. Unknown when the platform did not say.
 */
export function freshMemory(hookStoredAt: unknown): RunMemory {
	const storedMs = typeof hookStoredAt === 'string' ? Date.parse(hookStoredAt) : NaN;
	if (Number.isNaN(storedMs)) return { started: [] };
	return { floor: new Date(storedMs - LATE_BY_MS).toISOString(), started: [] };
}

/**
 * Whether a signed call for `entry` (as just read back) starts a run: only once per version of the
 * entry (its id and `updatedAt`; `createdAt` when only inserts start runs, an entry being inserted
 * once), and never for a version older than the hook. A run is remembered in `memory`, oldest
 * versions forgotten first past MAX_RUNS_REMEMBERED (then the floor moves up past them).
 */
export function judgeCall(memory: RunMemory, entry: IDataObject, events: HookEvent[]): CallVerdict {
	const changedAt = events.includes('update') ? entry.updatedAt : entry.createdAt;
	const changedMs = Date.parse(String(changedAt));
	// Without a time the call cannot be told from a replay: it runs, and is not remembered.
	if (Number.isNaN(changedMs)) return 'run';
	const floorMs = memory.floor === undefined ? -Infinity : Date.parse(memory.floor);
	if (changedMs < floorMs) return 'stale';
	const version = versionKey(String(entry.id), changedMs);
	const started = memory.started ?? [];
	if (started.includes(version)) return 'unchanged';
	const kept = keepNewest(floorMs, [...started, version], MAX_RUNS_REMEMBERED);
	memory.started = kept.versions;
	if (Number.isFinite(kept.floorMs)) memory.floor = new Date(kept.floorMs).toISOString();
	return 'run';
}
