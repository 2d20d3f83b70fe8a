/**
 * The sizes Sync's reads work in. They live in one object so that a test can scale them down: a
 * run of tens of rows then meets every path a run of a million does (several pages, a targeted
 * read in several requests, a full read given up for a targeted one).
 */
export const readSizes = {
	/** Entries asked for per page of a read. */
	page: 5000,
	/**
	 * Keys in one request of a read by key: their entries fill about half a page. With 0, the
	 * data source is always read whole (the reads by key after a lost answer and of the check are
	 * then bounded by `targetedBytes` alone).
	 */
	targetedKeys: 2500,
	/** Bytes of key values in one request of a targeted read. */
	targetedBytes: 256 * 1024,
};
