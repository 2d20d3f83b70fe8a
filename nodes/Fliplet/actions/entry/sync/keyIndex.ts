/**
 * Row numbers by key, for keys held in a list (`keys[row]`): an open-addressing table of row
 * numbers in one typed array. A million keys take 8 MB here (beside the list), where a Map takes
 * about five times that, and a first load of a spreadsheet can have that many.
 */
export class KeyIndex {
	private readonly slots: Int32Array;
	private readonly mask: number;
	/** Distinct keys added. */
	size = 0;

	constructor(
		private readonly keys: ReadonlyArray<string | undefined>,
		capacity: number,
	) {
		// At most half full: a probe meets a free slot after a step or two.
		let size = 16;
		while (size < capacity * 2) size *= 2;
		this.slots = new Int32Array(size).fill(-1);
		this.mask = size - 1;
	}

	/** The first row added with `key`, or undefined. */
	get(key: string): number | undefined {
		for (let slot = hashOf(key) & this.mask; ; slot = (slot + 1) & this.mask) {
			const row = this.slots[slot];
			if (row < 0) return undefined;
			if (this.keys[row] === key) return row;
		}
	}

	/** Adds `row` under its key unless a row with that key was added before; returns that first row. */
	add(row: number): number {
		const key = this.keys[row] as string;
		for (let slot = hashOf(key) & this.mask; ; slot = (slot + 1) & this.mask) {
			const found = this.slots[slot];
			if (found < 0) {
				this.slots[slot] = row;
				this.size++;
				return row;
			}
			if (this.keys[found] === key) return found;
		}
	}
}

/** FNV-1a over the UTF-16 code units. */
function hashOf(text: string): number {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}
