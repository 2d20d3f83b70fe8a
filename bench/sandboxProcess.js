'use strict';
// The sandbox for the benchmark, in its own process (rate limits as in the platform's docs), so
// the benchmark's memory figures are those of n8n and the node only. Driven by IPC messages.
// BENCH_HASH_BODIES=1: each request keeps a hash of its body (see `arrivals`).

const { createSandbox } = require('../sandbox');
const { installLink, linkSettings } = require('./link');

const sandbox = createSandbox({
	rateLimits: true,
	hashBodies: process.env.BENCH_HASH_BODIES === '1',
});
let mark = 0;
let cpuAtMark = process.cpuUsage();
/** The modelled link (BENCH_RTT_MS, BENCH_UP_MBIT, BENCH_DOWN_MBIT), if one is set. */
const settings = linkSettings();
let link;
let linkAtMark = { up: 0, down: 0, connections: 0 };
const linkNow = () =>
	link ? { up: link.up.bytes, down: link.down.bytes, connections: link.connections } : undefined;

/** Request bodies are only kept until they are counted: 100,000 rows would otherwise pile up. */
function forgetBodies() {
	for (const record of sandbox.requests) record.body = undefined;
}

/**
 * BENCH_TRACE=1: each request of the last run on the link, in ms from the first one's arrival:
 * when it arrived, when its upload was done (the handler ran), when it was answered and when the
 * answer was delivered. Printed on stderr.
 */
function printTimeline(timeline) {
	const zero = timeline[0]?.arrived ?? 0;
	const at = (time) => (time === undefined ? '-' : String(Math.round(time - zero))).padStart(6);
	const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`.padStart(9);
	console.error(
		'request                                     up      down  arrived handled answered delivered',
	);
	for (const t of timeline) {
		console.error(
			`${t.path.padEnd(36)} ${mb(t.up)} ${mb(t.down)} ${at(t.arrived)}  ${at(t.handled)}   ${at(t.answered)}    ${at(t.delivered)}`,
		);
	}
}

const commands = {
	/** Starts a new measurement: counts restart and the rate-limit window is empty. */
	mark() {
		forgetBodies();
		mark = sandbox.requests.length;
		cpuAtMark = process.cpuUsage();
		sandbox.rateLimiter.reset();
		linkAtMark = linkNow() ?? linkAtMark;
		if (link) link.timeline.length = 0;
		return {};
	},
	stats() {
		const since = sandbox.requests.slice(mark);
		const count = (test) => since.filter(test).length;
		forgetBodies();
		if (link && process.env.BENCH_TRACE) printTimeline(link.timeline);
		const cpu = process.cpuUsage(cpuAtMark);
		return {
			cpuMs: (cpu.user + cpu.system) / 1000,
			requests: since.length,
			bytes: since.reduce((sum, record) => sum + record.bytes, 0),
			queries: count((record) => record.path.endsWith('/data/query')),
			commits: count((record) => record.path.endsWith('/commit')),
			puts: count((record) => record.method === 'PUT'),
			rateLimited: count((record) => record.status === 429),
			...(link
				? {
						link: {
							bytesUp: link.up.bytes - linkAtMark.up,
							bytesDown: link.down.bytes - linkAtMark.down,
							connections: link.connections - linkAtMark.connections,
						},
					}
				: {}),
		};
	},
	/**
	 * Appends entries holding `rows` straight into the store (a big data source in seconds).
	 */
	seed({ dataSourceId, rows }) {
		const store = require('../sandbox/dataSources/store');
		const dataSource = sandbox.state.dataSources.find((ds) => ds.id === dataSourceId);
		const entries = rows.map((data) => store.newEntry(sandbox.state, dataSource, data));
		store.appendEntries(sandbox.state, dataSourceId, entries);
		return { entries: store.countOf(sandbox.state, dataSourceId) };
	},
	/**
	 * The requests since the mark to paths matching `path` (a regex), as a refusal count needs them:
	 * method, path, query, status, arrival time, the time a refusal named and body hash.
	 */
	arrivals({ path }) {
		const matches = new RegExp(path);
		return sandbox.requests
			.slice(mark)
			.filter((record) => matches.test(record.path))
			.map(({ method, path: recordPath, query, status, at, reopensAt, bodyHash }) => ({
				method,
				path: recordPath,
				query,
				status,
				at,
				reopensAt,
				bodyHash,
			}));
	},
	/** Entries of a data source and how many distinct keys they hold (equal: no duplicates). */
	content({ dataSourceId, key }) {
		const entries = sandbox.state.entries.filter((entry) => entry.dataSourceId === dataSourceId);
		return {
			entries: entries.length,
			distinctKeys: new Set(entries.map((entry) => entry.data[key])).size,
		};
	},
	/** A stored media file's size and MD5 checksum, and whether it is served on the CDN-like host. */
	mediaFile({ id }) {
		const file = sandbox.state.media.get(id);
		return file && { size: file.data.length, checksum: file.metadata.checksum, url: file.url };
	},
};

process.on('message', (message) => {
	try {
		process.send({ id: message.id, result: commands[message.cmd](message.args ?? {}) });
	} catch (error) {
		process.send({ id: message.id, error: error.message });
	}
});
process.on('disconnect', () => {
	sandbox.stop().then(() => process.exit(0));
});

sandbox.start(0, '127.0.0.1').then((url) => {
	if (settings) link = installLink(sandbox.server, settings);
	process.send({ ready: url, cdn: sandbox.cdnUrl, link: settings });
});
