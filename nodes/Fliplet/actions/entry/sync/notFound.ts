import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SyncPlan } from './diff';
import type { NotFoundWords, SyncSettings } from './settings';

const SYNC_WORDS: NotFoundWords = {
	mode: 'Only Update Existing',
	fix: 'Check the key (key columns and, unless "Ignore Key Case" is on, keys are case-sensitive) and the data source, or choose the mode "Insert New and Update Changed" to add such rows.',
};

/** "item 3 ("a@x.io"), item 7 ("b@x.io") and 4 more" for the first rows of `items`. */
function itemsText(plan: Pick<SyncPlan, 'keys'>, items: number[]): string {
	const shown = items.slice(0, 5).map((item) => `item ${item} ("${plan.keys[item]}")`);
	const more = items.length - shown.length;
	return `${shown.join(', ')}${more ? ` and ${more} more` : ''}`;
}

/** The error of one row whose key no entry holds, paired with its item. */
function notFoundError(
	node: INode,
	plan: Pick<SyncPlan, 'keys'>,
	item: number,
	why: string,
	words: NotFoundWords,
) {
	return new NodeOperationError(node, `Item ${item}: no entry has the key "${plan.keys[item]}"`, {
		itemIndex: item,
		description: `${why} ${words.fix}`,
	});
}

/**
 * Only Update Existing never inserts. A row whose key no entry holds stops the run before any
 * commit, naming them, without Continue On Fail; with it, each becomes an error item of its own
 * (returned by item index) and the others are written. A run where no row's key is found would
 * write nothing it was asked to: that is refused either way, as a run where no row has a key.
 */
export function refuseNotFound(
	this: IExecuteFunctions,
	plan: SyncPlan,
	settings: SyncSettings,
): Map<number, NodeOperationError> {
	const errors = new Map<number, NodeOperationError>();
	const { notFound } = plan;
	if (settings.mode !== 'updateOnly' || !notFound.length) return errors;
	const node = this.getNode();
	const words = settings.notFoundWords ?? SYNC_WORDS;
	const listed = itemsText(plan, notFound);
	if (!plan.matched) {
		throw new NodeOperationError(
			node,
			`None of the ${notFound.length} rows has the key of an entry of the data source`,
			{
				itemIndex: notFound[0],
				description: `${words.mode} updates the entries whose key is in the data source and inserts nothing, so this run would write nothing. Not found: ${listed}. ${words.fix} Nothing was changed.`,
			},
		);
	}
	if (!this.continueOnFail()) {
		const rows = notFound.length === 1 ? '1 row has a key' : `${notFound.length} rows have keys`;
		throw new NodeOperationError(node, `${rows} that no entry of the data source has`, {
			itemIndex: notFound[0],
			description: `${words.mode} never inserts. Not found: ${listed}. ${words.fix} To update the other rows and get an error item for each of these, turn on Continue On Fail. Nothing was changed.`,
		});
	}
	const why = `${words.mode} never inserts, and no entry has this key.`;
	for (const item of notFound) errors.set(item, notFoundError(node, plan, item, why, words));
	return errors;
}

/**
 * Rows of Only Update Existing whose entry another writer deleted during the run (found by the
 * read of a commit whose answer was lost): not updated, never inserted. With Continue On Fail
 * each is an error item; without it, the run fails once the rest was written.
 */
export function vanishedErrors(
	this: IExecuteFunctions,
	plan: Pick<SyncPlan, 'keys'>,
	vanished: number[],
	written: string,
	words: NotFoundWords = SYNC_WORDS,
): Map<number, NodeOperationError> {
	const errors = new Map<number, NodeOperationError>();
	if (!vanished.length) return errors;
	const node = this.getNode();
	const why = `Its entry was deleted (by another writer) while Sync ran, so it was not updated; ${words.mode} never inserts.`;
	if (!this.continueOnFail()) {
		throw new NodeOperationError(
			node,
			`${vanished.length} row${vanished.length === 1 ? '' : 's'} not updated: the entry was deleted while Sync ran`,
			{
				itemIndex: vanished[0],
				description: `Not updated: ${itemsText(plan, vanished)}. ${written} ${words.fix}`,
			},
		);
	}
	for (const item of vanished) errors.set(item, notFoundError(node, plan, item, why, words));
	return errors;
}
