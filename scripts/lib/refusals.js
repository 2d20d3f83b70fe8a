'use strict';
// How often the sandbox refused (429) the requests it recorded, and how the accepted ones kept to
// the limit: used by the queue-mode tier, the cross-process benchmark and the tests.

/**
 * One request and its re-sends share this: method, path, query and body (the body's hash from a
 * sandbox started with `hashBodies`, else the parsed body).
 */
function identityOf(request) {
	const body = request.bodyHash ?? JSON.stringify(request.body ?? null);
	return `${request.method} ${request.path} ${JSON.stringify(request.query ?? {})} ${body}`;
}

/** The most times one request was refused (429) in a row, over requests in arrival order. */
function longestRefusalRun(requests) {
	const runs = new Map();
	let longest = 0;
	for (const request of [...requests].sort((a, b) => a.at - b.at)) {
		const id = identityOf(request);
		const run = request.status === 429 ? (runs.get(id) ?? 0) + 1 : 0;
		runs.set(id, run);
		longest = Math.max(longest, run);
	}
	return longest;
}

/**
 * The refused share, pace and longest refusal run of `requests` (one area) under `rate`
 * ({limit, windowMs}). The pace is the least time the limit allows for the accepted requests,
 * (n - 1) × window ÷ limit, over the time from the first arrival to the last accepted one: 1 is
 * the limit's full pace. `busyUntil`: the same pace up to that time (while every process still
 * had work).
 */
function refusalFigures(requests, rate, busyUntil) {
	const arrivals = [...requests].sort((a, b) => a.at - b.at);
	const accepted = arrivals.filter((request) => request.status !== 429).map((r) => r.at);
	const paceOf = (times, end) =>
		times.length < 2
			? 0
			: ((times.length - 1) * rate.windowMs) / rate.limit / Math.max(1, end - arrivals[0].at);
	return {
		requests: arrivals.length,
		refused: arrivals.length - accepted.length,
		pace: paceOf(accepted, accepted[accepted.length - 1] ?? 0),
		busyPace:
			busyUntil === undefined
				? undefined
				: paceOf(
						accepted.filter((at) => at <= busyUntil),
						busyUntil,
					),
		longestRefusalRun: longestRefusalRun(arrivals),
	};
}

module.exports = { identityOf, longestRefusalRun, refusalFigures };
