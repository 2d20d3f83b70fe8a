'use strict';
// Shapes one run's data (IRun, as n8n's execute commands save it) for the checks: each node's output items and the
// sandbox requests that node sent.
//
// Each node of a tier workflow has its own credential whose base URL ends in `/__tag/<tag>`
// (see isolateCredentials in imports.js); the sandbox serves the request as usual and records the
// tag, so a request is matched to its node by name. Timestamps cannot do it: two nodes can start
// and end within the same millisecond.

/** The sandbox tag of a node: its name, in characters safe in a URL path. */
function nodeTag(nodeName) {
	return Buffer.from(nodeName, 'utf8').toString('base64url');
}

/** The node name a tag stands for (undefined for a request sent without one). */
function nodeOfTag(tag) {
	return tag === undefined ? undefined : Buffer.from(tag, 'base64url').toString('utf8');
}

/**
 * @param {any} raw IRun (or its `data`)
 * @param {Array<{ tag?: string }>} requests sandbox requests of this run, in order
 */
function shapeRun(raw, requests) {
	const resultData = raw.data?.resultData ?? raw.resultData ?? raw;
	const runData = resultData.runData ?? {};
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
			requests: requests.filter((request) => nodeOfTag(request.tag) === name),
		};
	}
	const error = resultData.error;
	return { status: raw.status ?? (error ? 'error' : 'success'), error, nodes };
}

module.exports = { shapeRun, nodeTag, nodeOfTag };
