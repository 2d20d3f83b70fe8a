/**
 * The entries a read found holding each row's key, in id order, for the per-row results (see
 * rowResults), noted as the diff keys each entry (see startDiff): the first id of each row in one
 * typed array (8 bytes a row), further ones in a map.
 * Kept only when a caller asks for per-row results: Sync's own output names only the entries it
 * wrote.
 */
export class RowEntries {
	private readonly first: Float64Array;
	private readonly more = new Map<number, number[]>();

	constructor(rowCount: number) {
		this.first = new Float64Array(rowCount).fill(NaN);
	}

	/** Notes that entry `id` holds the key of row `row` (entries come in id order). */
	add(row: number, id: number): void {
		if (Number.isNaN(this.first[row])) this.first[row] = id;
		else if (this.first[row] !== id) {
			const ids = this.more.get(row);
			if (!ids) this.more.set(row, [id]);
			else if (!ids.includes(id)) ids.push(id);
		}
	}

	/** The entries found holding the key of row `row`, lowest id first. */
	of(row: number): number[] {
		const first = this.first[row];
		if (Number.isNaN(first)) return [];
		return [first, ...(this.more.get(row) ?? [])];
	}
}
