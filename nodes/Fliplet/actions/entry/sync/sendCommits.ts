import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { flipletApiRequest, JsonBody, jsonBodyOf } from '../../../transport';
import { clientIdOf, commitBody, type CommitOptions, type PlannedCommit } from './chunks';
import type { InputRows } from './diff';

export interface CommitOutcome {
	/** The commits that landed, in plan order. */
	landed: PlannedCommit[];
	/** Their places in the plan (0-based), in the same order. */
	landedAt: number[];
	/** New entry id by input item index, from the `clientIds` the API returned. */
	newIds: Map<number, number>;
	/** The first commit that did not land; commits after it may have landed (see `landedAt`). */
	failure?: {
		index: number;
		error: Error & { description?: string | null; httpCode?: string | null };
	};
}

/**
 * Commits on their way at once: the next ones upload while the server stores those before, so the
 * uplink does not idle for a round trip per commit. Uploads on their way together share the link
 * and end about together, and the link then idles for one round trip and a store until the next
 * ones go: the more bytes go together, the smaller that share of the time (see
 * MAX_BYTES_IN_FLIGHT).
 */
export const COMMITS_IN_FLIGHT = 8;
/**
 * Bytes on their way at once: another commit is only sent while the bodies under way and its own
 * stay within this (one commit always may). 16 MB take 2.7 s at 50 Mbit/s, so a round trip and a
 * store of about 0.15 s idle the link about 5% of the time; a slow uplink never has more than this
 * (or one commit) to carry within the request timeout; commits of 16 MB go one at a time as before.
 */
export const MAX_BYTES_IN_FLIGHT = 16 * 1024 * 1024;

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

interface CommitInFlight {
	index: number;
	bytes: number;
	result: Promise<{ value: unknown } | { error: Error }>;
}

/**
 * Sends the commits in plan order, several at a time (see COMMITS_IN_FLIGHT), and sends no more
 * once one fails: the outcome lists exactly the commits that landed (those already on their way
 * when one failed may have) and the first that did not. A delete commit is only sent once every
 * commit before it has landed, so a failure never deletes an entry whose row did not land. Each
 * body is serialized while the commits before it are on their way (after letting the last request
 * out), so n8n and the server work at the same time.
 */
export async function sendCommits(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	commits: PlannedCommit[],
	rows: InputRows,
	options: CommitOptions,
	counter: { requests: number },
): Promise<CommitOutcome> {
	const outcome: CommitOutcome = { landed: [], landedAt: [], newIds: new Map() };
	// A body JSON cannot carry is that commit's failure: nothing after it is sent.
	const bodyOf = (index: number): JsonBody | Error => {
		try {
			return jsonBodyOf(this, commitBody(commits[index], rows, options));
		} catch (error) {
			return error as Error;
		}
	};
	const fail = (index: number, error: Error) => {
		if (!outcome.failure || index < outcome.failure.index) outcome.failure = { index, error };
	};
	const onTheWay: CommitInFlight[] = [];
	let bytesOnTheWay = 0;
	const mayGo = (index: number, body: JsonBody | Error) => {
		if (!onTheWay.length) return true;
		if (commits[index].kind === 'delete' || body instanceof Error) return false;
		return (
			onTheWay.length < COMMITS_IN_FLIGHT &&
			bytesOnTheWay + body.bytes.length <= MAX_BYTES_IN_FLIGHT
		);
	};
	let index = 0;
	let next = commits.length ? bodyOf(0) : undefined;
	while (onTheWay.length || (index < commits.length && !outcome.failure)) {
		while (next !== undefined && !outcome.failure && mayGo(index, next)) {
			if (next instanceof Error) {
				fail(index, next);
				break;
			}
			counter.requests++;
			const body: JsonBody = next;
			onTheWay.push({
				index,
				bytes: body.bytes.length,
				result: settled(
					flipletApiRequest.call(this, {
						method: 'POST',
						path: dataSourcePath(target, 'commit'),
						qs: target.qs,
						body,
						idempotent: commits[index].idempotent,
					}),
				),
			});
			bytesOnTheWay += body.bytes.length;
			index++;
			next = undefined;
			if (index < commits.length) {
				await sleep(0);
				next = bodyOf(index);
			}
		}
		const oldest = onTheWay.shift();
		if (!oldest) break;
		const result = await oldest.result;
		bytesOnTheWay -= oldest.bytes;
		if ('error' in result) {
			fail(oldest.index, result.error);
			continue;
		}
		const commit = commits[oldest.index];
		outcome.landed.push(commit);
		outcome.landedAt.push(oldest.index);
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
