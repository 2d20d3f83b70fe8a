'use strict';
// Shapes one run's data (IRun, as n8n's execute commands save it) for the checks: each node's output items and the
// sandbox requests received while that node ran.

/**
 * @param {any} raw IRun (or its `data`)
 * @param {Array<{ at: number }>} requests sandbox requests of this run, in order
 */
function shapeRun(raw, requests) {
	const resultData = raw.data?.resultData ?? raw.resultData ?? raw;
	const runData = resultData.runData ?? {};
	const nodes = {};
	for (const [name, runs] of Object.entries(runData)) {
		const first = runs[0] ?? {};
		const items = (first.data?.main?.[0] ?? []).map((item) => ({
			json: item.json,
			binary: item.binary,
		}));
		const from = first.startTime ?? 0;
		const to = from + (first.executionTime ?? 0);
		nodes[name] = {
			items,
			outputs: (first.data?.main ?? []).map((output) => (output ?? []).map((item) => item.json)),
			error: first.error,
			requests: requests.filter((request) => request.at >= from - 1 && request.at <= to + 1),
		};
	}
	const error = resultData.error;
	return { status: raw.status ?? (error ? 'error' : 'success'), error, nodes };
}

module.exports = { shapeRun };
