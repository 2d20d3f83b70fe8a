/** Splits a list into consecutive chunks of at most `size` elements. */
export function chunk<T>(list: T[], size: number): T[][] {
	const step = Math.max(1, Math.floor(size));
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += step)
		chunks.push(list.slice(start, start + step));
	return chunks;
}

/** "item 3", "items 1–4", "items 1, 3, 7": 0-based indexes shown 0-based as n8n shows them. */
export function describeItems(indexes: number[]): string {
	if (indexes.length === 1) return `item ${indexes[0]}`;
	const sorted = [...indexes].sort((a, b) => a - b);
	const contiguous = sorted.every((value, i) => i === 0 || value === sorted[i - 1] + 1);
	if (contiguous) return `items ${sorted[0]}–${sorted[sorted.length - 1]}`;
	return `items ${sorted.join(', ')}`;
}

/**
 * Chunks of at most `size` elements in which every element has the same key (e.g. the same app),
 * groups in the order their keys first appear.
 */
export function chunkBy<T>(list: T[], size: number, key: (element: T) => string): T[][] {
	const groups = new Map<string, T[]>();
	for (const element of list) {
		const group = groups.get(key(element)) ?? [];
		group.push(element);
		groups.set(key(element), group);
	}
	return [...groups.values()].flatMap((group) => chunk(group, size));
}
