'use strict';
// What the queue-mode tier proves, one function per claim. Each prints what happened (which worker
// ran which execution, rows per key, trigger firings) and throws (node:assert) when it is wrong.

const assert = require('node:assert/strict');

const { TOKENS } = require('../../sandbox');
const { pacedRuns } = require('./queueWorkflows');
const { alikeOf, longestRefusalRunOf, refusalFigures } = require('./refusals');

const TRIGGER_WORKFLOW = 'exNewEntryMail01';
const STAFF = 100;

function log(message = '') {
	process.stdout.write(`${message}\n`);
}

async function until(what, probe, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** The sandbox's own API, as another writer would use it. */
function sandboxApi(url) {
	const call = async (method, route, body) => {
		const response = await fetch(`${url}${route}`, {
			method,
			headers: { 'Auth-token': TOKENS.org, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	};
	return {
		async createDataSource(name, rows = []) {
			const { dataSource } = await call('POST', '/v1/data-sources?appId=11', { name });
			if (rows.length) await this.append(dataSource.id, rows);
			return dataSource.id;
		},
		append: (id, rows) =>
			call('POST', `/v1/data-sources/${id}/data`, { entries: rows, append: true }),
	};
}

function postWebhook(mainUrl, path, body) {
	const isForm = body instanceof FormData;
	return fetch(`${mainUrl}/webhook/${path}`, {
		method: 'POST',
		headers: isForm ? {} : { 'content-type': 'application/json' },
		body: isForm ? body : JSON.stringify(body),
	}).then(async (response) => {
		const text = await response.text();
		if (!response.ok) throw new Error(`POST /webhook/${path}: ${response.status} ${text}`);
		return JSON.parse(text);
	});
}

function rowsPerKey(state, dataSourceId, key) {
	const counts = new Map();
	for (const entry of state.entries.filter((e) => e.dataSourceId === dataSourceId)) {
		counts.set(entry.data[key], (counts.get(entry.data[key]) ?? 0) + 1);
	}
	return counts;
}

/** Prints "execution → worker" lines and asserts each ran on a worker. */
function assertRanOnWorkers(cluster, executionIds, label) {
	const ranBy = cluster.executionsByWorker();
	const perWorker = {};
	for (const id of executionIds) {
		const worker = ranBy.get(String(id));
		assert.ok(worker, `${label}: execution ${id} is in no worker's log (did it run on main?)`);
		perWorker[worker] = [...(perWorker[worker] ?? []), id];
	}
	for (const [worker, ids] of Object.entries(perWorker)) {
		log(`    ${worker} ran ${label} execution(s) ${ids.join(', ')}`);
	}
	return perWorker;
}

/** Fliplet Insert from 6 concurrent webhook calls, and an uploaded file emailed as an attachment. */
async function checkInsertAndBinary({ cluster, sandbox, ids }) {
	const people = Array.from({ length: 6 }, (_, i) => ({
		Name: `Queue Person ${i + 1}`,
		Email: `queue${i + 1}@example.com`,
	}));
	const inserted = await Promise.all(
		people.map((person) => postWebhook(cluster.mainUrl, 'queue-insert', person)),
	);
	assertRanOnWorkers(
		cluster,
		inserted.map((reply) => reply.executionId),
		'Insert',
	);
	const counts = rowsPerKey(sandbox.state, ids.insertDataSource, 'Email');
	for (const person of people) assert.equal(counts.get(person.Email), 1, `${person.Email} once`);
	for (const reply of inserted) {
		const stored = sandbox.state.entries.find((entry) => entry.id === reply.id);
		assert.equal(stored?.data.Email, reply.data?.Email, 'the output is the stored entry');
	}
	log(`  ✓ 6 concurrent inserts: 6 entries, one per call, output = stored entry`);

	const csv = 'Name,Visits\nAlice,3\nBob,5\n';
	const form = new FormData();
	form.append('to', 'binary@example.com');
	form.append('report', new Blob([csv], { type: 'text/csv' }), 'report.csv');
	const emailed = await postWebhook(cluster.mainUrl, 'queue-email', form);
	assertRanOnWorkers(cluster, [emailed.executionId], 'Email with attachment');
	const sent = sandbox.state.sent.emails.filter(
		(email) => email.to[0].email === 'binary@example.com',
	);
	assert.equal(sent.length, 1, 'one email');
	const [attachment] = sent[0].attachments ?? [];
	assert.equal(attachment?.name, 'report.csv');
	const content =
		attachment.encoding === 'base64'
			? Buffer.from(attachment.content, 'base64').toString('utf8')
			: attachment.content;
	assert.equal(content, csv, 'the uploaded bytes, stored by main, read by the worker');
	log(`  ✓ file uploaded to main, emailed by a worker as report.csv (${csv.length} bytes, equal)`);
}

/** 20 Sync runs at once, each with 2 existing keys (1 changed) and 3 new keys of its own. */
async function checkConcurrentSyncs({ cluster, sandbox, ids, seeded }) {
	const runs = Array.from({ length: 20 }, (_, run) => [
		{ ...seeded[2 * run], Department: `Changed by run ${run + 1}` },
		seeded[2 * run + 1],
		...[1, 2, 3].map((n) => ({
			Email: `run${run + 1}-new${n}@example.com`,
			Name: `New ${n} of run ${run + 1}`,
			Department: 'New',
		})),
	]);
	const started = Date.now();
	const replies = await Promise.all(
		runs.map((rows) => postWebhook(cluster.mainUrl, 'queue-sync', { rows })),
	);
	log(`    20 Sync runs enqueued at once, all answered in ${Date.now() - started} ms`);
	const ranBy = cluster.executionsByWorker();
	replies.forEach((reply, run) => {
		const { inserted, updated, unchanged } = reply;
		log(
			`    run ${String(run + 1).padStart(2)} (execution ${reply.executionId}, ${ranBy.get(String(reply.executionId)) ?? 'main?'}): ` +
				`inserted ${inserted}, updated ${updated}, unchanged ${unchanged}`,
		);
		assert.deepEqual([inserted, updated, unchanged], [3, 1, 1], `run ${run + 1}'s summary`);
	});
	assertRanOnWorkers(
		cluster,
		replies.map((reply) => reply.executionId),
		'Sync',
	);
	const counts = rowsPerKey(sandbox.state, ids.syncDataSource, 'Email');
	const expected = [
		...seeded.map((row) => row.Email),
		...runs.flatMap((rows) => rows.slice(2).map((row) => row.Email)),
	];
	assert.equal(counts.size, expected.length, 'no key the runs did not send');
	for (const key of expected) assert.equal(counts.get(key), 1, `${key} exactly once`);
	log(`  ✓ 20 concurrent Syncs: ${expected.length} keys, each exactly once (${counts.size} rows)`);
}

/** 10 Sync runs at once, all with the same 5 new keys. */
async function checkOverlappingSyncs({ cluster, sandbox, ids }) {
	const rows = [1, 2, 3, 4, 5].map((n) => ({ Email: `same${n}@example.com`, Name: `Same ${n}` }));
	const replies = await Promise.all(
		Array.from({ length: 10 }, () => postWebhook(cluster.mainUrl, 'queue-overlap', { rows })),
	);
	assertRanOnWorkers(
		cluster,
		replies.map((reply) => reply.executionId),
		'overlapping Sync',
	);
	log(
		`    what the 10 runs reported (inserted/updated/unchanged/duplicates removed): ${replies.map((r) => `${r.inserted}/${r.updated}/${r.unchanged}/${r.duplicatesRemoved ?? '-'}`).join(', ')}`,
	);
	const counts = rowsPerKey(sandbox.state, ids.overlapDataSource, 'Email');
	log(
		`    rows per key: ${rows.map((row) => `${row.Email} ${counts.get(row.Email) ?? 0}`).join(', ')}`,
	);
	for (const row of rows) assert.equal(counts.get(row.Email), 1, `${row.Email} exactly once`);
	log(`  ✓ 10 overlapping Syncs of the same 5 new keys: each key once`);
}

/**
 * The most of a token's data-source requests the sandbox may refuse (429) while runs on both
 * workers share it: 3% with the credential's count of processes set to the workers (what the
 * queue-mode docs ask for). Left at 1, each worker starts at the whole limit and learns from its
 * first refusals; the requests on their way then are refused too, as many as the worker sends in
 * the time an answer takes (0.4% to 4% here, more on a slower machine): 10% catches a pacing that
 * no longer gives way (49% before it did).
 */
const MAX_REFUSED_SHARE = { counted: 0.03, defaultCount: 0.1 };
/**
 * The most times one request may be refused in a row. The 10 Syncs write into one data source, so
 * some of their requests are alike (each reads it, each checks it for duplicates): each Sync runs
 * its own workflow whose credential tags its requests (see pacedRuns), so a run of refusals is
 * one Sync's request's.
 */
const MAX_REFUSAL_RUN = 2;

/**
 * 10 Syncs of 250 rows in commits of 5 on one token, spread over both workers (about 520 requests,
 * past the token's 200 per 10 s together): every run finishes with every key once, and the workers
 * share the limit: few requests refused (see MAX_REFUSED_SHARE), none more than twice in a row.
 * `setting`: the credential's count of processes of the workflow at `path` (into `dataSource`).
 */
function checkSharedToken({ setting, path, dataSource }) {
	return async ({ cluster, sandbox, ids }) => {
		const runPaths = pacedRuns({ setting, path }).map((run) => run.path);
		const RUNS = runPaths.length;
		const ROWS = 250;
		const runs = Array.from({ length: RUNS }, (_, run) =>
			Array.from({ length: ROWS }, (_, n) => ({
				Email: `paced${run + 1}-${n + 1}@example.com`,
				Name: `Paced ${n + 1} of run ${run + 1}`,
			})),
		);
		const before = sandbox.requests.length;
		const started = Date.now();
		const replies = await Promise.all(
			runs.map((rows, run) => postWebhook(cluster.mainUrl, runPaths[run], { rows })),
		);
		const seconds = (Date.now() - started) / 1000;
		const requests = sandbox.requests
			.slice(before)
			.filter((request) => request.path.startsWith('/v1/data-sources/'));
		const figures = refusalFigures(requests, { limit: 200, windowMs: 10_000 });
		const share = figures.refused / Math.max(1, figures.requests);
		const maxShare = setting > 1 ? MAX_REFUSED_SHARE.counted : MAX_REFUSED_SHARE.defaultCount;
		log(
			`    ${RUNS} runs answered in ${seconds.toFixed(1)} s (credential set to ${setting} process${setting > 1 ? 'es' : ''}): ${figures.requests} data-source requests, ${figures.refused} answered 429 (${(share * 100).toFixed(1)}%, at most ${maxShare * 100}%), longest run of refusals of one request ${figures.longestRefusalRun} (counting alike requests of several runs as one: ${figures.alikeRefusalRun}), accepted at ${(figures.pace * 100).toFixed(0)}% of the best pace the limit's windows allow (${figures.bestWindows} windows)`,
		);
		if (figures.alikeRefusalRun > 1) {
			const alike = requests.map(alikeOf);
			log(`    alike requests refused in a row: ${describeRun(longestRefusalRunOf(alike))}`);
		}
		const perWorker = assertRanOnWorkers(
			cluster,
			replies.map((reply) => reply.executionId),
			'paced Sync',
		);
		assert.ok(Object.keys(perWorker).length > 1, 'the runs were spread over several workers');
		replies.forEach((reply, run) => {
			assert.equal(reply.inserted, ROWS, `run ${run + 1} inserted all its rows`);
		});
		const counts = rowsPerKey(sandbox.state, ids[dataSource], 'Email');
		assert.equal(counts.size, RUNS * ROWS, 'every key of every run');
		for (const [key, count] of counts) assert.equal(count, 1, `${key} exactly once`);
		assert.ok(
			share <= maxShare,
			`${(share * 100).toFixed(1)}% of the data-source requests were refused (at most ${maxShare * 100}%)`,
		);
		assert.ok(
			figures.longestRefusalRun <= MAX_REFUSAL_RUN,
			`a request was refused ${figures.longestRefusalRun} times in a row (at most ${MAX_REFUSAL_RUN})`,
		);
		log(
			`  ✓ ${RUNS} Syncs on one token over ${Object.keys(perWorker).length} workers: every run finished, ${RUNS * ROWS} keys, each once; ${(share * 100).toFixed(1)}% refused`,
		);
	};
}

/** The longest refusal run in a line: which request, and when each of its arrivals came. */
function describeRun(run) {
	const [first] = run.arrivals;
	const body = JSON.stringify(first.body ?? null).slice(0, 80);
	const times = run.arrivals
		.map((request) => `${request.status} at +${request.at - first.at} ms`)
		.join(', ');
	return `${first.method} ${first.path} ${body}: ${times}`;
}

/** Waits until the trigger stored its cursor (at activation): entries added later are new. */
async function waitForTriggerCursor(rest) {
	await until(
		'the Fliplet Trigger stores its cursor on activation',
		async () => {
			const { data } = await rest.request('GET', `/rest/workflows/${TRIGGER_WORKFLOW}`);
			return data.active && data.staticData && Object.keys(data.staticData).length > 0;
		},
		60_000,
	);
}

/**
 * The example "email each new data source entry", published on main: new entries added while main
 * runs, while it is stopped, and after its restart each get exactly one welcome email.
 */
async function checkTrigger({ cluster, sandbox, api, login }) {
	const welcomed = () => {
		const counts = new Map();
		for (const email of sandbox.state.sent.emails) {
			const to = email.to[0].email;
			if (to.startsWith('trigger')) counts.set(to, (counts.get(to) ?? 0) + 1);
		}
		return counts;
	};
	const person = (n) => ({
		Name: `Trigger ${n}`,
		Email: `trigger${n}@example.com`,
		Department: 'Queue',
	});
	// Waits for the emails of entries already added (by `addAndWait`, or while main was stopped).
	const waitForEmails = async (numbers, label, started = Date.now()) => {
		const all = [...welcomed().keys()];
		await until(
			`welcome emails for ${label}`,
			() => numbers.every((n) => welcomed().has(`trigger${n}@example.com`)),
			150_000,
		);
		log(
			`    ${label}: ${numbers.length} new entries emailed after ${((Date.now() - started) / 1000).toFixed(0)} s (${all.length} before)`,
		);
	};
	const addAndWait = async (numbers, label) => {
		const started = Date.now();
		await api.append(STAFF, numbers.map(person));
		await waitForEmails(numbers, label, started);
	};

	await addAndWait([1, 2, 3], 'added while main runs');
	// A second poll before any restart: it must deliver only the entry added since the first.
	await addAndWait([4], 'one more, next poll');
	log(
		`    emails so far: ${[...welcomed()].map(([to, n]) => `${to.split('@')[0]} ${n}`).join(', ')}`,
	);
	await cluster.stop('main');
	const stoppedAt = Date.now();
	await api.append(STAFF, [5, 6, 7].map(person));
	log('    main stopped; 3 entries added; main started again');
	await cluster.startMain();
	// Added once already, above: adding them again here would make two entries per address.
	await waitForEmails([5, 6, 7], 'added while main was stopped', stoppedAt);
	await addAndWait([8, 9], 'added after the restart');

	const counts = welcomed();
	log(
		`    emails per entry: ${[...counts].map(([to, n]) => `${to.split('@')[0]} ${n}`).join(', ')}`,
	);
	// One entry per address, so "one email per address" means "one email per entry".
	const entries = rowsPerKey(sandbox.state, STAFF, 'Email');
	for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
		assert.equal(entries.get(`trigger${n}@example.com`), 1, `one entry for trigger${n}`);
	}
	assert.equal(counts.size, 9, 'every new entry, no other');
	for (const [to, n] of counts) assert.equal(n, 1, `${to} emailed exactly once`);
	const rest = await login();
	const filter = encodeURIComponent(JSON.stringify({ workflowId: TRIGGER_WORKFLOW }));
	const listed = await rest.request('GET', `/rest/executions?filter=${filter}`);
	const executions = (listed.data?.results ?? listed.data ?? []).slice().reverse();
	const ranBy = cluster.executionsByWorker();
	for (const execution of executions) {
		log(
			`    trigger execution ${execution.id}: ${execution.status}, on ${ranBy.get(String(execution.id)) ?? 'no worker'}`,
		);
	}
	assertRanOnWorkers(
		cluster,
		executions.map((execution) => execution.id),
		'trigger',
	);
	for (const execution of executions) assert.equal(execution.status, 'success');
	log(
		`  ✓ Fliplet Trigger: 9 new entries, 9 emails, each once, across a restart of main (${executions.length} executions)`,
	);
}

module.exports = {
	waitForTriggerCursor,
	checkTrigger,
	TRIGGER_WORKFLOW,
	STAFF,
	log,
	until,
	sandboxApi,
	checkInsertAndBinary,
	checkConcurrentSyncs,
	checkOverlappingSyncs,
	checkSharedToken,
	assertRanOnWorkers,
};
