/**
 * How late an event may show up behind a newer one and still count as new: a long commit's rows
 * carry the time it started but show when it ends, and one server's clock may lag another's.
 */
export const LATE_BY_MS = 60_000;

/** One version of an event (`id@time`): a change of an entry is a new version. */
export const versionKey = (id: string, timeMs: number) => `${id}@${timeMs}`;

const timeOfVersion = (version: string) => Number(version.slice(version.lastIndexOf('@') + 1));

export interface RememberedVersions {
	/** Every version before this time counts as delivered. */
	floorMs: number;
	/** The versions delivered at or after the floor. */
	versions: string[];
}

/**
 * The versions at or after `floorMs`, at most `max` of them: past that the floor moves up, oldest
 * versions first, but never past the newest time (versions sharing it are all kept).
 */
export function keepNewest(floorMs: number, versions: string[], max: number): RememberedVersions {
	let kept = [...new Set(versions)].filter((version) => timeOfVersion(version) >= floorMs);
	if (kept.length <= max) return { floorMs, versions: kept };
	const times = kept.map(timeOfVersion).sort((a, b) => a - b);
	const oldestKept = times[times.length - max];
	// Versions sharing the oldest kept time go too when keeping them would pass the bound.
	const tiesPass = times[times.length - max - 1] === oldestKept;
	const raised = Math.min(times[times.length - 1], tiesPass ? oldestKept + 1 : oldestKept);
	kept = kept.filter((version) => timeOfVersion(version) >= raised);
	return { floorMs: raised, versions: kept };
}
