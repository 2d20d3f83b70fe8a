import {
	keepNewest,
	LATE_BY_MS,
	type RememberedVersions,
} from '../Fliplet/helpers/deliveredVersions';

/**
 * How far behind the newest delivered event each poll reads again: events there that were not
 * delivered yet (they showed up late, carrying an earlier time) are delivered; those that were
 * are recognised by their version and dropped.
 */
export const LOOK_BACK_MS = LATE_BY_MS;

/**
 * The most delivered versions the cursor keeps (about 40 KB of static data). Past it the window
 * shrinks, oldest versions first; the versions sharing the newest time are always kept.
 */
export const MAX_REMEMBERED = 2_000;

/**
 * Where the window starts once events up to `newestMs` are delivered, and the versions to keep:
 * it trails the newest time by LOOK_BACK_MS, never moves back (what lies before the old floor was
 * not remembered), and starts later when more than MAX_REMEMBERED versions fall in it.
 */
export function lookBack(
	previousFloorMs: number,
	newestMs: number,
	versions: string[],
): RememberedVersions {
	return keepNewest(Math.max(previousFloorMs, newestMs - LOOK_BACK_MS), versions, MAX_REMEMBERED);
}
