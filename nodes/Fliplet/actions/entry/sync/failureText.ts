import type { NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PlanOutcome } from './sendPlan';
import { landedText, recoveredText, RERUN_IS_SAFE } from './summary';

export type FailedError = Error & { description?: string | null; httpCode?: string | null };

/**
 * A 404 to a commit that names entries by id: the transport's advice (check the data source's id
 * or name) does not fit, Sync has just read that data source; an entry it names is gone.
 */
function entryGoneText(kind: 'update' | 'delete'): string {
	return kind === 'update'
		? 'An entry this commit updates is gone: another writer deleted it after Sync read the data source (the API answered 404, not found). Run Sync again: it reads the data source again and inserts the rows whose entry is gone (Only Update Existing reports them as not found).'
		: 'An entry this commit deletes is gone: another writer deleted it after Sync read the data source (the API answered 404, not found). Run Sync again: it reads the data source again and deletes what is still there.';
}

/**
 * The commit error, told as where Sync stopped, what landed (or may have) and why re-running is
 * safe. A failed read of what lost commits stored, and a failed check of the keys after it, are
 * added to it, never put in its place: which commit did not land stays the first cause.
 */
export function explainFailure(
	outcome: PlanOutcome,
	commitCount: number,
	checkFailure?: Error,
): FailedError {
	const { index, error, commit } = outcome.failure!;
	const rows = commit.inserts.length + commit.updates.length + commit.deletes.length;
	error.message = `Sync stopped at commit ${index + 1} of ${commitCount} (${commit.kind} of ${rows} rows): ${error.message}`;
	const status = Number(error.httpCode);
	// For server and network failures the generic advice ("check before re-sending") does not apply:
	// Sync re-reads and diffs, so a re-run cannot duplicate what landed. A refusal of the API or of
	// the node itself (data it cannot send) says what to fix.
	const refused = (status >= 400 && status < 500) || error instanceof NodeOperationError;
	const fix =
		status === 404 && commit.kind !== 'insert'
			? ` ${entryGoneText(commit.kind)}`
			: refused && error.description
				? ` ${error.description}`
				: '';
	const unread = outcome.checkFailure
		? ` Reading its keys to see what it stored failed too (${outcome.checkFailure.message}).`
		: '';
	const recovered = recoveredText(outcome);
	const check = checkFailure
		? ` Checking the keys for duplicates failed too (${checkFailure.message}), so another run inserting the same keys meanwhile could have left a key on two entries.`
		: '';
	error.description = `${landedText(outcome, commitCount)}.${unread}${recovered ? ` ${recovered}` : ''}${check} ${RERUN_IS_SAFE}${fix}`;
	return error;
}

/** A failed check of the keys after every commit landed, told as what it is: the rows were written. */
export function explainCheckFailure(failure: NodeApiError | NodeOperationError, inserted: number) {
	failure.message = `Sync wrote its rows, but checking the keys for duplicates failed: ${failure.message}`;
	failure.description =
		`${inserted} rows were inserted. Another run of Sync inserting the same keys at the same time could have left a key on two entries; this run could not check. Run Sync again with the same input when the cause is fixed: it inserts nothing twice, and a key it finds on several entries keeps only one. ${failure.description ?? ''}`.trim();
	return failure;
}
