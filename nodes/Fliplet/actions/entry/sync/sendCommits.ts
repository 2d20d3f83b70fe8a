import type { IExecuteFunctions } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { flipletApiRequest } from '../../../transport';
import { clientIdOf, commitBody, type CommitOptions, type PlannedCommit } from './chunks';
import type { InputRows } from './diff';

export interface CommitOutcome {
	landed: PlannedCommit[];
	/** New entry id by input item index, from the `clientIds` the API returned. */
	newIds: Map<number, number>;
	failure?: {
		index: number;
		error: Error & { description?: string | null; httpCode?: string | null };
	};
}

/** `clientIds: [{clientId, id}]` of a commit response, if the API sent them. */
function readClientIds(body: unknown): Array<{ clientId: string; id: number }> {
	const list = (body as { clientIds?: unknown } | undefined)?.clientIds;
	if (!Array.isArray(list)) return [];
	return list
		.filter(isObject)
		.map((pair) => ({ clientId: String(pair.clientId), id: Number(pair.id) }))
		.filter((pair) => Number.isInteger(pair.id));
}

/** Sends the commits in order and stops at the first that fails, reporting what landed. */
export async function sendCommits(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	commits: PlannedCommit[],
	rows: InputRows,
	options: CommitOptions,
	counter: { requests: number },
): Promise<CommitOutcome> {
	const outcome: CommitOutcome = { landed: [], newIds: new Map() };
	for (let index = 0; index < commits.length; index++) {
		const commit = commits[index];
		counter.requests++;
		let body: unknown;
		try {
			body = await flipletApiRequest.call(this, {
				method: 'POST',
				path: dataSourcePath(target, 'commit'),
				qs: target.qs,
				body: commitBody(commit, rows, options),
				idempotent: commit.idempotent,
			});
		} catch (error) {
			outcome.failure = { index, error: error as Error };
			return outcome;
		}
		outcome.landed.push(commit);
		// The new ids are only reported per row; a large sync need not keep them otherwise.
		// Only insert commits have rows (and clientIds) to pair.
		if (options.outputRows) {
			const itemByClientId = new Map(
				commit.inserts.map((itemIndex) => [clientIdOf(itemIndex), itemIndex]),
			);
			for (const { clientId, id } of readClientIds(body)) {
				const itemIndex = itemByClientId.get(clientId);
				if (itemIndex !== undefined) outcome.newIds.set(itemIndex, id);
			}
		}
	}
	return outcome;
}
