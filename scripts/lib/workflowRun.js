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
	const windows = Object.entries(runData).map(([name, runs]) => {
		const from = runs[0]?.startTime ?? 0;
		return { name, from, to: from + (runs[0]?.executionTime ?? 0) };
	});
	// Nodes of one execution run one after another: a request belongs to the node that started
	// last before it (and had not finished; a millisecond of slack for rounding).
	const ownerOf = (request) =>
		windows
			.filter((window) => window.from <= request.at && request.at <= window.to + 1)
			.sort((a, b) => b.from - a.from)[0]?.name;
	const owners = requests.map(ownerOf);
	const nodes = {};
	for (const [name, runs] of Object.entries(runData)) {
		const first = runs[0] ?? {};
		nodes[name] = {
			items: (first.data?.main?.[0] ?? []).map((item) => ({
				json: item.json,
				binary: item.binary,
			})),
			outputs: (first.data?.main ?? []).map((output) => (output ?? []).map((item) => item.json)),
			error: first.error,
			requests: requests.filter((_, index) => owners[index] === name),
		};
	}
	const error = resultData.error;
	return { status: raw.status ?? (error ? 'error' : 'success'), error, nodes };
}

module.exports = { shapeRun };
