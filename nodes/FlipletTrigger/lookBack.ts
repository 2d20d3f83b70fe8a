/**
 * How far behind the newest delivered event each poll reads again. An event can become visible
 * after newer ones were delivered while carrying an earlier time: a long commit stamps its rows
 * when it starts and shows them when it ends, and one server's clock may lag another's. Events
 * in this window that were not delivered yet are delivered; those that were are recognised by
 * their version and dropped.
 */
export const LOOK_BACK_MS = 60_000;

/**
 * The most delivered versions the cursor keeps (about 40 KB of static data). Past it the window
 * shrinks, oldest versions first; the versions sharing the newest time are always kept.
 */
export const MAX_REMEMBERED = 2_000;

/** One version of an event: its id and its time (an update of an entry is a new version). */
export const versionKey = (id: string, timeMs: number) => `${id}@${timeMs}`;

const timeOfVersion = (version: string) => Number(version.slice(version.lastIndexOf('@') + 1));

export interface LookBack {
	/** Every event before this time counts as delivered (or as history). */
	floorMs: number;
	/** The versions delivered at or after the floor. */
	delivered: string[];
}

/**
 * Where the window starts once events up to `newestMs` are delivered, and the versions to keep:
 * the window trails the newest time by LOOK_BACK_MS, never moves back (what lies before the old
 * floor was not remembered), and starts later when more than MAX_REMEMBERED versions fall in it.
 */
export function lookBack(previousFloorMs: number, newestMs: number, versions: string[]): LookBack {
	let floorMs = Math.max(previousFloorMs, newestMs - LOOK_BACK_MS);
	let delivered = [...new Set(versions)].filter((version) => timeOfVersion(version) >= floorMs);
	if (delivered.length > MAX_REMEMBERED) {
		const times = delivered.map(timeOfVersion).sort((a, b) => a - b);
		const oldestKept = times[times.length - MAX_REMEMBERED];
		// Versions sharing the oldest kept time go too when keeping them would pass the bound.
		const tiesPass = times[times.length - MAX_REMEMBERED - 1] === oldestKept;
		floorMs = Math.min(newestMs, tiesPass ? oldestKept + 1 : oldestKept);
		delivered = delivered.filter((version) => timeOfVersion(version) >= floorMs);
	}
	return { floorMs, delivered };
}
