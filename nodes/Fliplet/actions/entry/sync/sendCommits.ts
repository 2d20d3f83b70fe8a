import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { flipletApiRequest, JsonBody, jsonBodyOf } from '../../../transport';
import {
	clientIdOf,
	commitBody,
	COMMITS_IN_FLIGHT,
	type CommitOptions,
	type PlannedCommit,
} from './chunks';
import type { InputRows } from './diff';
import { mayHaveLanded } from './mayHaveLanded';
import { countedIn, type RequestCount } from './requestCount';

export interface CommitOutcome {
	/** The commits that landed, in plan order. */
	landed: PlannedCommit[];
	/** Their places in the plan (0-based), in the same order. */
	landedAt: number[];
	/** The commits that failed in a way that may have come after the server stored them. */
	unknown: PlannedCommit[];
	/** Their places in the plan (0-based), in the same order. */
	unknownAt: number[];
	/** New entry id by input item index, from the `clientIds` the API returned. */
	newIds: Map<number, number>;
	/** How many commits were sent (the first ones of the plan): none after a failure was known. */
	sent: number;
	/** The places of every commit that failed, whatever its outcome, in the order they failed. */
	failedAt: number[];
	/**
	 * The first commit that failed (it did not land, or may have: see `unknownAt`); commits after
	 * it may have landed (see `landedAt`).
	 */
	failure?: {
		index: number;
		error: Error & { description?: string | null; httpCode?: string | null };
	};
}

/**
 * Bytes on their way at once: another commit is only sent while the bodies under way and its own
 * stay within this (one commit always may), so a slow uplink never has more than this (or one
 * commit) to carry within the request timeout.
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

type Settled = { index: number } & ({ value: unknown } | { error: Error });

/** A commit's answer or its failure, held without rejecting while other work goes on. */
async function settled(index: number, answer: Promise<unknown>): Promise<Settled> {
	try {
		return { index, value: await answer };
	} catch (error) {
		return { index, error: error as Error };
	}
}

/**
 * Sends the commits in plan order, several at a time (see COMMITS_IN_FLIGHT), and sends no more
 * once one fails: the outcome lists exactly the commits that landed (those already on their way
 * when one failed may have), those whose answer was lost after they may have been stored, and the
 * first that failed. A delete commit is only sent once every
 * commit before it has landed, so a failure never deletes an entry whose row did not land. Each
 * body is serialized while the commits before it are on their way (after letting the last request
 * out), so n8n and the server work at the same time; the next commit goes as soon as any answer is
 * in.
 */
export async function sendCommits(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	commits: PlannedCommit[],
	rows: InputRows,
	options: CommitOptions,
	counter: RequestCount,
): Promise<CommitOutcome> {
	const landedAt: number[] = [];
	const unknownAt: number[] = [];
	const failedAt: number[] = [];
	const newIds = new Map<number, number>();
	let failure: CommitOutcome['failure'];
	// A body JSON cannot carry is that commit's failure: nothing after it is sent.
	const bodyOf = (index: number): JsonBody | Error => {
		try {
			return jsonBodyOf(this, commitBody(commits[index], rows, options));
		} catch (error) {
			return error as Error;
		}
	};
	const fail = (index: number, error: Error) => {
		failedAt.push(index);
		if (!failure || index < failure.index) failure = { index, error };
	};
	const onTheWay = new Map<number, { bytes: number; result: Promise<Settled> }>();
	let bytesOnTheWay = 0;
	const mayGo = (index: number, body: JsonBody | Error) => {
		if (!onTheWay.size) return true;
		if (commits[index].kind === 'delete' || body instanceof Error) return false;
		return (
			onTheWay.size < COMMITS_IN_FLIGHT && bytesOnTheWay + body.bytes.length <= MAX_BYTES_IN_FLIGHT
		);
	};
	let index = 0;
	let next = commits.length ? bodyOf(0) : undefined;
	for (;;) {
		while (next !== undefined && !failure && mayGo(index, next)) {
			if (next instanceof Error) {
				fail(index, next);
				break;
			}
			const answer = flipletApiRequest.call(this, {
				method: 'POST',
				path: dataSourcePath(target, 'commit'),
				qs: target.qs,
				body: next,
				idempotent: commits[index].idempotent,
				...countedIn(counter),
			});
			onTheWay.set(index, { bytes: next.bytes.length, result: settled(index, answer) });
			bytesOnTheWay += next.bytes.length;
			index++;
			next = undefined;
			if (index < commits.length) {
				await sleep(0);
				next = bodyOf(index);
			}
		}
		if (!onTheWay.size) break;
		const result = await Promise.race([...onTheWay.values()].map((commit) => commit.result));
		bytesOnTheWay -= onTheWay.get(result.index)!.bytes;
		onTheWay.delete(result.index);
		if ('error' in result) {
			fail(result.index, result.error);
			if (mayHaveLanded(result.error, commits[result.index].idempotent))
				unknownAt.push(result.index);
			continue;
		}
		landedAt.push(result.index);
		// The new ids are only reported per row; a large sync need not keep them otherwise.
		// Only insert commits have rows (and clientIds) to pair.
		if (options.outputRows) {
			const itemByClientId = new Map(
				commits[result.index].inserts.map((itemIndex) => [clientIdOf(itemIndex), itemIndex]),
			);
			for (const { clientId, id } of readClientIds(result.value)) {
				const itemIndex = itemByClientId.get(clientId);
				if (itemIndex !== undefined) newIds.set(itemIndex, id);
			}
		}
	}
	// Answers come in any order; the outcome lists the commits in plan order.
	const inPlanOrder = (places: number[]) => places.sort((a, b) => a - b);
	return {
		landed: inPlanOrder(landedAt).map((at) => commits[at]),
		landedAt,
		unknown: inPlanOrder(unknownAt).map((at) => commits[at]),
		unknownAt,
		newIds,
		sent: index,
		failedAt,
		failure,
	};
}
