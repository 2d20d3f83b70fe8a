import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { flipletApiRequest, JsonBody, jsonBodyOf } from '../../../transport';
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

/** A request's answer or its failure, held without rejecting while other work goes on. */
async function settled<T>(answer: Promise<T>): Promise<{ value: T } | { error: Error }> {
	try {
		return { value: await answer };
	} catch (error) {
		return { error: error as Error };
	}
}

/**
 * Sends the commits in order and stops at the first that fails, reporting what landed. Each
 * commit's body is serialized while the one before is on its way (after letting that request
 * out), so n8n and the server work at the same time; a body is only sent once the commit before
 * it has landed.
 */
export async function sendCommits(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	commits: PlannedCommit[],
	rows: InputRows,
	options: CommitOptions,
	counter: { requests: number },
): Promise<CommitOutcome> {
	const outcome: CommitOutcome = { landed: [], newIds: new Map() };
	// A body JSON cannot carry is that commit's failure, once the commits before it have landed.
	const bodyOf = (index: number): JsonBody | Error => {
		try {
			return jsonBodyOf(this, commitBody(commits[index], rows, options));
		} catch (error) {
			return error as Error;
		}
	};
	if (!commits.length) return outcome;
	let next = bodyOf(0);
	for (let index = 0; index < commits.length; index++) {
		const commit = commits[index];
		if (next instanceof Error) {
			outcome.failure = { index, error: next };
			return outcome;
		}
		counter.requests++;
		const answer = settled(
			flipletApiRequest.call(this, {
				method: 'POST',
				path: dataSourcePath(target, 'commit'),
				qs: target.qs,
				body: next,
				idempotent: commit.idempotent,
			}),
		);
		if (index + 1 < commits.length) {
			await sleep(0);
			next = bodyOf(index + 1);
		}
		const result = await answer;
		if ('error' in result) {
			outcome.failure = { index, error: result.error };
			return outcome;
		}
		outcome.landed.push(commit);
		// The new ids are only reported per row; a large sync need not keep them otherwise.
		// Only insert commits have rows (and clientIds) to pair.
		if (options.outputRows) {
			const itemByClientId = new Map(
				commit.inserts.map((itemIndex) => [clientIdOf(itemIndex), itemIndex]),
			);
			for (const { clientId, id } of readClientIds(result.value)) {
				const itemIndex = itemByClientId.get(clientId);
				if (itemIndex !== undefined) outcome.newIds.set(itemIndex, id);
			}
		}
	}
	return outcome;
}
