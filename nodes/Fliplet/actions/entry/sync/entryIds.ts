import type { SyncPlan } from './diff';
import type { Repair } from './repairDuplicates';
import type { PlanOutcome } from './sendPlan';

/** What a run knows of the entries it inserted: their ids, and what the check of the keys read. */
export interface InsertedIds {
	plan: Pick<SyncPlan, 'keys'>;
	outcome?: Pick<PlanOutcome, 'newIds'>;
	repair?: Pick<Repair, 'entriesOfKey'>;
}

/**
 * The id of the entry that holds inserted row `item` at the end of the run: when the check of the
 * keys after the commits read its key (another writer, a late landing or a re-sent insert put it
 * on several entries), the entry it kept (the lowest id: every run keeps that one); else the id the
 * commit's answer gave it (`clientIds`), or the read after a lost answer found. Undefined when
 * neither is known (no `clientIds` in the answer, a commit whose outcome stayed unknown).
 */
export function insertedEntryId(
	{ plan, outcome, repair }: InsertedIds,
	item: number,
): number | undefined {
	const key = plan.keys[item];
	const read = key === undefined ? undefined : repair?.entriesOfKey.get(key);
	return read?.length ? read[0] : outcome?.newIds.get(item);
}
