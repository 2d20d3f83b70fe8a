/** What the transport records of a failed request (`errorResponse` of its NodeApiError). */
interface ApiResponseRecord {
	status?: number | null;
	attempts?: number;
	mayHaveBeenProcessed?: boolean;
}

/**
 * Whether a commit that failed may still have been stored, told only by what the transport
 * records of the failure, never by its message:
 * - `mayHaveBeenProcessed`, when the transport says it (a request it must not re-send, whose
 *   answer was lost after it may have reached the server: a 5xx, a timeout, a dropped connection,
 *   a body cut mid-way; false when it never reached the server);
 * - else, for a request the transport may re-send (updates without hooks, deletes): no status (a
 *   network fault) or a 5xx may come after the server stored it, and so may the faults before the
 *   transport's retries (`attempts` above 1);
 * - a failure without an API response (a body that could not be built, a field never sent)
 *   happened before anything was sent.
 */
export function mayHaveLanded(error: unknown, idempotent: boolean): boolean {
	const response = (error as { errorResponse?: unknown }).errorResponse;
	if (typeof response !== 'object' || response === null) return false;
	const { status, attempts, mayHaveBeenProcessed } = response as ApiResponseRecord;
	if (typeof mayHaveBeenProcessed === 'boolean') return mayHaveBeenProcessed;
	if (typeof status !== 'number' || status >= 500) return true;
	return idempotent && (attempts ?? 1) > 1;
}
