'use strict';
// How often the sandbox refused (429) the requests it recorded, and how the accepted ones kept to
// the limit: used by the queue-mode tier, the cross-process benchmark and the tests.

/**
 * One request and its re-sends share this: the tag of the sender that sent it (when its base URL
 * carries one: see the sandbox's `/__tag/`), method, path, query and body (the body's hash from a
 * sandbox started with `hashBodies`, else the parsed body).
 */
function identityOf(request) {
	const body = request.bodyHash ?? JSON.stringify(request.body ?? null);
	return `${request.tag ?? ''} ${request.method} ${request.path} ${JSON.stringify(request.query ?? {})} ${body}`;
}

/**
 * The longest run of refusals (429) of one request, over requests in arrival order: its length,
 * and the arrivals of that request up to the run's last refusal (for a report).
 *
 * Requests alike (method, path, query and body: see identityOf) may be several requests, of
 * several executions, on their way together: three Syncs into one data source look at its first
 * entry alike. A request refused is never sent again before the time its refusal named (the
 * transport waits for it; the sandbox records it as `reopensAt`), so an arrival before that time
 * is another request: it starts a run of its own. An arrival at or after it may be the re-send of
 * any run waiting by then: a refusal continues the longest of them, and an answer ends the
 * shortest (as an answer to any of them ended the run before). Records without `reopensAt` count
 * as before: one run per identity.
 */
function longestRefusalRunOf(requests) {
	/** identity → the runs of its requests waiting to be sent again: {length, reopensAt, arrivals} */
	const waiting = new Map();
	let longest = { length: 0, arrivals: [] };
	for (const request of [...requests].sort((a, b) => a.at - b.at)) {
		const id = identityOf(request);
		const runs = waiting.get(id) ?? [];
		waiting.set(id, runs);
		const due = runs.filter((run) => run.reopensAt <= request.at);
		if (request.status === 429) {
			const before = due.reduce((a, b) => (!a || b.length > a.length ? b : a), undefined);
			if (before) runs.splice(runs.indexOf(before), 1);
			const run = {
				length: (before?.length ?? 0) + 1,
				reopensAt: request.reopensAt ?? request.at,
				arrivals: [...(before?.arrivals ?? []), request],
			};
			runs.push(run);
			if (run.length > longest.length) longest = run;
		} else {
			const ended = due.reduce((a, b) => (!a || b.length < a.length ? b : a), undefined);
			if (ended) runs.splice(runs.indexOf(ended), 1);
		}
	}
	return longest;
}

/** The most times one request was refused (429) in a row, over requests in arrival order. */
function longestRefusalRun(requests) {
	return longestRefusalRunOf(requests).length;
}

/**
 * A request as the alike count sees it: without the time its refusal named and its sender's tag,
 * so it is told apart only by method, path, query and body.
 */
function alikeOf({ reopensAt: _named, tag: _sender, ...request }) {
	return request;
}

/**
 * The same, telling requests apart only by method, path, query and body (see alikeOf): alike
 * requests of several executions count as one.
 */
function longestRefusalRunOfAlike(requests) {
	return longestRefusalRun(requests.map(alikeOf));
}

/**
 * The refused share, pace and longest refusal runs of `requests` (one area) under `rate`
 * ({limit, windowMs}). The pace is the least time the limit's windows allow for the accepted
 * requests (the limit at once, then the limit again each window later: ⌊(n - 1) ÷ limit⌋
 * windows) over the time from the first arrival to the last accepted one: 1 is the best pace; it
 * means something for runs of at least a few windows (`bestWindows`). `busyUntil`: the same pace
 * up to that time (while every process still had work).
 */
function refusalFigures(requests, rate, busyUntil) {
	const arrivals = [...requests].sort((a, b) => a.at - b.at);
	const accepted = arrivals.filter((request) => request.status !== 429).map((r) => r.at);
	const windowsFor = (count) => Math.max(0, Math.floor((count - 1) / rate.limit));
	const paceOf = (times, end) =>
		times.length < 2
			? 0
			: (windowsFor(times.length) * rate.windowMs) / Math.max(1, end - arrivals[0].at);
	return {
		requests: arrivals.length,
		refused: arrivals.length - accepted.length,
		pace: paceOf(accepted, accepted[accepted.length - 1] ?? 0),
		bestWindows: windowsFor(accepted.length),
		busyPace:
			busyUntil === undefined
				? undefined
				: paceOf(
						accepted.filter((at) => at <= busyUntil),
						busyUntil,
					),
		longestRefusalRun: longestRefusalRun(arrivals),
		alikeRefusalRun: longestRefusalRunOfAlike(arrivals),
	};
}

module.exports = {
	alikeOf,
	identityOf,
	longestRefusalRun,
	longestRefusalRunOf,
	longestRefusalRunOfAlike,
	refusalFigures,
};
