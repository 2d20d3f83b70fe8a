/** Rows handled between two pauses of inSlices. */
export const SLICE_ROWS = 5000;

/**
 * Runs `work(from, to)` over the rows `0..count` a slice at a time, awaiting `pause` after each, so
 * that requests already asked for can go out while a large input is checked and keyed.
 */
export async function inSlices(
	count: number,
	work: (from: number, to: number) => void,
	pause: () => Promise<void>,
): Promise<void> {
	for (let from = 0; from < count; from += SLICE_ROWS) {
		work(from, Math.min(count, from + SLICE_ROWS));
		await pause();
	}
}
