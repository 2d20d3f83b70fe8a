/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { runSyncWorkflow, type SyncRun } from './engine';
import { insertOneByOne } from './naive';
import { inputJsonBytes } from './rows';
import {
	createDataSource,
	SandboxProcess,
	type LinkSettings,
	type RequestStats,
} from './sandboxClient';

// The default run stays short; a size list selects more: BENCH_SIZES=1000000 npm run bench.
// BENCH_PARALLEL=2,4 (the default) also runs that many Syncs at once on one token.
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const NAIVE_ROWS = Number(process.env.BENCH_NAIVE_ROWS ?? 200);
/**
 * Syncs run at once on one token in this n8n process, each into its own data source, in commits
 * small enough that together they need more than one rate-limit window (BENCH_PARALLEL=0: none).
 */
const PARALLEL = (process.env.BENCH_PARALLEL ?? '2,4').split(',').map(Number).filter(Boolean);
const PARALLEL_ROWS = Number(process.env.BENCH_PARALLEL_ROWS ?? 40_000);
const PARALLEL_CHUNK = Number(process.env.BENCH_PARALLEL_CHUNK ?? 200);
const CHANGE_EVERY = 100;

/** The documented data-source limit: 200 requests in any 10 s. */
const RATE_LIMIT = 200;
const RATE_WINDOW_MS = 10_000;
/** The least time the rate limit allows for `requests` requests, at its sustained rate. */
const floorMs = (requests: number) => (requests * RATE_WINDOW_MS) / RATE_LIMIT;

/** Set once the sandbox process reports the link it models (undefined: plain loopback). */
let link: LinkSettings | undefined;

const GOALS = {
	firstRequests: 120,
	firstTimeOverFloor: 1.05,
	resyncShare: 0.01,
	resyncTimeOverFloor: 1.5,
	/** Over a modelled link, both a fresh Sync and a re-sync. */
	linkTimeOverFloor: 1.2,
	/** Syncs in parallel on one token: from the first start to the last end, over their combined floor. */
	parallelTimeOverFloor: 1.15,
	heapOverInput: 3,
};

interface Floor {
	ms: number;
	/** What sets it: the rate limit, the uplink or the downlink. */
	bound: string;
}

/**
 * The least time a run's requests can take: on loopback the rate limit's; over a link also its
 * bytes at each direction's bandwidth, whichever is largest, plus one round trip.
 */
function floorOf(stats: RequestStats): Floor {
	const candidates: Floor[] = [{ ms: floorMs(stats.requests), bound: 'rate limit' }];
	if (link && stats.link) {
		const msFor = (bytes: number, mbit: number) => (mbit > 0 ? (bytes * 8) / (mbit * 1000) : 0);
		candidates.push({ ms: msFor(stats.link.bytesUp, link.upMbit), bound: 'uplink' });
		candidates.push({ ms: msFor(stats.link.bytesDown, link.downMbit), bound: 'downlink' });
	}
	const largest = candidates.reduce((a, b) => (b.ms > a.ms ? b : a));
	return { ms: largest.ms + (link?.rttMs ?? 0), bound: largest.bound };
}

const linkText = (settings: LinkSettings) =>
	`${settings.rttMs} ms round trip, ${settings.upMbit || 'unlimited'} Mbit/s up, ${settings.downMbit || 'unlimited'} Mbit/s down${settings.handshakeRtts ? `, ${settings.handshakeRtts} round trips per new connection` : ''}`;

interface TableRow {
	rows: number;
	run: string;
	measured: Measured;
	floor: Floor;
	ratio: number;
	goal: number;
}
const table: TableRow[] = [];

interface Measured {
	run: SyncRun;
	stats: RequestStats;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const hours = (ms: number) =>
	ms >= 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${(ms / 60_000).toFixed(1)} min`;
const verdict = (ok: boolean) => (ok ? '[met]' : '[NOT MET]');

const checks: Array<[string, boolean]> = [];
function goal(name: string, ok: boolean): string {
	checks.push([name, ok]);
	return verdict(ok);
}

async function syncOnce(
	sandbox: SandboxProcess,
	dataSourceId: number,
	count: number,
	changeEvery: number,
	liveMemory = false,
): Promise<Measured> {
	await sandbox.mark();
	const run = await runSyncWorkflow(
		sandbox.url,
		{ count, changeEvery },
		{ dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) }, keyColumns: 'Email' },
		{ liveMemory },
	);
	return { run, stats: await sandbox.stats() };
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
	if (actual !== expected)
		throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

function requestsText(stats: RequestStats): string {
	const refused = stats.rateLimited ? `, ${stats.rateLimited}× 429` : ', no 429';
	return `${stats.requests} requests (${stats.queries} reads, ${stats.commits} commits${refused})`;
}

/** The Sync node's own time (as n8n records it) beside the floor of its requests. */
function timeText(measured: Measured): { text: string; ratio: number; floor: Floor } {
	const floor = floorOf(measured.stats);
	const ratio = measured.run.syncMs / floor.ms;
	const carried = measured.stats.link
		? `; link: ${mb(measured.stats.link.bytesUp)} up, ${mb(measured.stats.link.bytesDown)} down, ${measured.stats.link.connections} new connections`
		: '';
	return {
		ratio,
		floor,
		text: `Sync ${seconds(measured.run.syncMs)} (floor ${seconds(floor.ms)}, ${floor.bound}, ${ratio.toFixed(2)}×; workflow ${seconds(measured.run.wallMs)}; CPU: n8n and the node ${seconds(measured.run.cpuMs)}, sandbox ${seconds(measured.stats.cpuMs)}${carried})`,
	};
}

/** Peak heap growth over the input JSON: in all, and the part beyond the items n8n holds. */
function heapRatios(run: SyncRun, inputBytes: number) {
	const { baselineHeap, itemsHeap, peakHeap } = run.memory;
	return {
		total: (peakHeap - baselineHeap) / inputBytes,
		items: (itemsHeap - baselineHeap) / inputBytes,
		own: (peakHeap - itemsHeap) / inputBytes,
	};
}

async function benchSize(sandbox: SandboxProcess, count: number): Promise<Measured> {
	const n = count.toLocaleString('en');
	const inputBytes = inputJsonBytes(count);
	await sandbox.mark();
	const dataSourceId = await createDataSource(sandbox.url, `Bench ${count}`);
	console.log(`N = ${n} rows (input JSON ${mb(inputBytes)})`);

	const first = await syncOnce(sandbox, dataSourceId, count, 0);
	expectEqual('inserted', first.run.summary.inserted, count);
	const afterFirst = await sandbox.content(dataSourceId, 'Email');
	expectEqual('entries after the first sync', afterFirst.entries, count);
	const firstTime = timeText(first);
	console.log(
		`  sync into a fresh source: ${requestsText(first.stats)}, ${mb(first.stats.bytes)} sent`,
	);
	console.log(
		`    requests ≤ ${GOALS.firstRequests} and no 429 ${goal(
			`N=${n}: fresh sync in ≤ ${GOALS.firstRequests} requests, no 429`,
			first.stats.requests <= GOALS.firstRequests && first.stats.rateLimited === 0,
		)}`,
	);
	const firstGoal = link ? GOALS.linkTimeOverFloor : GOALS.firstTimeOverFloor;
	table.push({ rows: count, run: 'Fresh Sync', measured: first, ...firstTime, goal: firstGoal });
	console.log(
		`    ${firstTime.text} ≤ ${firstGoal}× ${goal(
			`N=${n}: fresh sync time ≤ ${firstGoal}× its floor`,
			firstTime.ratio <= firstGoal,
		)}`,
	);

	const again = await syncOnce(sandbox, dataSourceId, count, CHANGE_EVERY);
	expectEqual('updated', again.run.summary.updated, Math.ceil(count / CHANGE_EVERY));
	expectEqual('inserted on re-sync', again.run.summary.inserted, 0);
	const afterAgain = await sandbox.content(dataSourceId, 'Email');
	expectEqual('distinct keys after re-sync', afterAgain.distinctKeys, count);
	expectEqual('entries after re-sync', afterAgain.entries, count);
	const share = again.stats.bytes / first.stats.bytes;
	const againTime = timeText(again);
	console.log(
		`  re-sync, 1% rows changed: ${requestsText(again.stats)}, ${mb(again.stats.bytes)} sent`,
	);
	console.log(
		`    ${(share * 100).toFixed(2)}% of the first sync's bytes ≤ 1% ${goal(
			`N=${n}: re-sync sends ≤ 1% of the first sync's bytes`,
			share <= GOALS.resyncShare,
		)}`,
	);
	const againGoal = link ? GOALS.linkTimeOverFloor : GOALS.resyncTimeOverFloor;
	table.push({
		rows: count,
		run: 'Re-sync, 1% changed',
		measured: again,
		...againTime,
		goal: againGoal,
	});
	console.log(
		`    ${againTime.text} ≤ ${againGoal}× ${goal(
			`N=${n}: re-sync time ≤ ${againGoal}× its floor`,
			againTime.ratio <= againGoal,
		)}`,
	);

	// Memory in use, in runs of their own (their collections would slow the timed runs).
	await sandbox.mark();
	const memorySource = await createDataSource(sandbox.url, `Bench memory ${count}`);
	const runs = [
		['fresh sync', await syncOnce(sandbox, memorySource, count, 0, true)],
		['re-sync', await syncOnce(sandbox, memorySource, count, CHANGE_EVERY, true)],
	] as const;
	for (const [label, { run }] of runs) {
		const heap = heapRatios(run, inputBytes);
		console.log(
			`  peak heap in use, ${label}: +${heap.total.toFixed(2)}× the input JSON ≤ ${GOALS.heapOverInput}× ${goal(
				`N=${n}: ${label} peak heap growth ≤ ${GOALS.heapOverInput}× the input JSON`,
				heap.total <= GOALS.heapOverInput,
			)} (n8n's input items ${heap.items.toFixed(2)}×, the node's own ${heap.own.toFixed(2)}×; peak RSS ${mb(run.memory.peakRss)})`,
		);
	}
	console.log('');
	return first;
}

interface ParallelRow {
	syncs: number;
	stats: RequestStats;
	wallMs: number;
	floor: Floor;
	ratio: number;
}
const parallelTable: ParallelRow[] = [];

/**
 * `syncs` Syncs of PARALLEL_ROWS rows each, started together in this n8n process on one token, each
 * into its own data source: they share the token's rate window, so none is refused, and together
 * they take about the least time the limit allows all their requests.
 */
async function benchParallel(sandbox: SandboxProcess, syncs: number): Promise<void> {
	const ids: number[] = [];
	for (let n = 0; n < syncs; n++) {
		ids.push(await createDataSource(sandbox.url, `Parallel ${syncs}, run ${n + 1}`));
	}
	await sandbox.mark();
	const started = Date.now();
	await Promise.all(
		ids.map(async (id) => {
			const run = await runSyncWorkflow(
				sandbox.url,
				{ count: PARALLEL_ROWS, changeEvery: 0 },
				{
					dataSource: { __rl: true, mode: 'id', value: String(id) },
					keyColumns: 'Email',
					syncOptions: { chunkSize: PARALLEL_CHUNK },
				},
				{ settleHeap: false },
			);
			expectEqual('inserted', run.summary.inserted, PARALLEL_ROWS);
		}),
	);
	const wallMs = Date.now() - started;
	const stats = await sandbox.stats();
	for (const id of ids) {
		const content = await sandbox.content(id, 'Email');
		expectEqual('entries after a parallel sync', content.entries, PARALLEL_ROWS);
		expectEqual('distinct keys after a parallel sync', content.distinctKeys, PARALLEL_ROWS);
	}
	const floor = floorOf(stats);
	const ratio = wallMs / floor.ms;
	parallelTable.push({ syncs, stats, wallMs, floor, ratio });
	console.log(
		`${syncs} Syncs at once on one token, ${PARALLEL_ROWS.toLocaleString('en')} rows each in commits of ${PARALLEL_CHUNK}: ${requestsText(stats)}`,
	);
	console.log(
		`  no 429 ${goal(`${syncs} parallel Syncs on one token: no 429`, stats.rateLimited === 0)}`,
	);
	console.log(
		`  all done in ${seconds(wallMs)} (combined floor ${seconds(floor.ms)}, ${floor.bound}, ${ratio.toFixed(2)}×) ≤ ${GOALS.parallelTimeOverFloor}× ${goal(
			`${syncs} parallel Syncs on one token: time ≤ ${GOALS.parallelTimeOverFloor}× their combined floor`,
			ratio <= GOALS.parallelTimeOverFloor,
		)}\n`,
	);
}

/** The times of every size as one markdown table, each beside its floor and goal. */
function printTable(): void {
	const title = link ? `Link: ${linkText(link)}` : 'Loopback';
	console.log(`\n${title}\n`);
	console.log('| Rows | Run | Requests | Up | Down | Sync time | Floor | Time ÷ floor | Goal |');
	console.log('| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |');
	for (const { rows, run, measured, floor, ratio, goal: most } of table) {
		const { stats } = measured;
		const up = stats.link ? mb(stats.link.bytesUp) : mb(stats.bytes);
		const down = stats.link ? mb(stats.link.bytesDown) : '–';
		const met = ratio <= most ? 'MET' : 'NOT MET';
		console.log(
			`| ${rows.toLocaleString('en')} | ${run} | ${stats.requests} | ${up} | ${down} | ${seconds(measured.run.syncMs)} | ${seconds(floor.ms)} (${floor.bound}) | ${ratio.toFixed(2)}× | ≤ ${most}× ${met} |`,
		);
	}
	if (!parallelTable.length) return;
	console.log(
		`\nParallel Syncs on one token (${PARALLEL_ROWS.toLocaleString('en')} rows each, commits of ${PARALLEL_CHUNK})\n`,
	);
	console.log('| Syncs | Requests | 429 | Time, all | Combined floor | Time ÷ floor | Goal |');
	console.log('| ---: | ---: | ---: | ---: | --- | ---: | --- |');
	for (const { syncs, stats, wallMs, floor, ratio } of parallelTable) {
		const met = ratio <= GOALS.parallelTimeOverFloor && !stats.rateLimited ? 'MET' : 'NOT MET';
		console.log(
			`| ${syncs} | ${stats.requests} | ${stats.rateLimited} | ${seconds(wallMs)} | ${seconds(floor.ms)} (${floor.bound}) | ${ratio.toFixed(2)}× | no 429, ≤ ${GOALS.parallelTimeOverFloor}× ${met} |`,
		);
	}
}

async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	link = sandbox.link;
	try {
		console.log(
			`Sync benchmark: sandbox ${sandbox.url}, data-source rate limit ${RATE_LIMIT} requests / ${RATE_WINDOW_MS / 1000} s (floor: ${floorMs(1)} ms per request)`,
		);
		console.log(
			link
				? `Link model: ${linkText(link)}; floor: the largest of the rate limit's, bytes up ÷ uplink and bytes down ÷ downlink, plus one round trip\n`
				: 'Loopback (set BENCH_RTT_MS, BENCH_UP_MBIT, BENCH_DOWN_MBIT to model a link)\n',
		);
		const firsts = new Map<number, Measured>();
		for (const count of SIZES) firsts.set(count, await benchSize(sandbox, count));
		for (const syncs of PARALLEL) await benchParallel(sandbox, syncs);

		await sandbox.mark();
		const naiveSource = await createDataSource(sandbox.url, 'Bench naive');
		await sandbox.mark();
		const naiveMs = await insertOneByOne(sandbox.url, naiveSource, NAIVE_ROWS);
		const naive = await sandbox.stats();
		const perRowBytes = naive.bytes / NAIVE_ROWS;
		const perRowMs = naiveMs / NAIVE_ROWS;
		console.log(
			`Naive, one PUT per row: N = ${NAIVE_ROWS.toLocaleString('en')} measured: ${naive.puts} requests (${naive.rateLimited} refused with 429 and sent again), ${mb(naive.bytes)} sent, ${seconds(naiveMs)}`,
		);
		for (const [count, first] of firsts) {
			// One request per row cannot go faster than the rate limit lets N requests through.
			const naiveTotalMs = Math.max(perRowMs * count, floorMs(count));
			console.log(
				`  N = ${count.toLocaleString('en')}: ${count.toLocaleString('en')} requests, ${mb(perRowBytes * count)} sent, at least ${hours(naiveTotalMs)} at the rate limit; Sync: ${first.stats.requests} requests (${(count / first.stats.requests).toFixed(0)}× fewer), ${seconds(first.run.syncMs)} (${(naiveTotalMs / first.run.syncMs).toFixed(0)}× faster)`,
			);
		}

		printTable();
		console.log('\nGoals:');
		for (const [name, ok] of checks) console.log(`  ${ok ? 'met    ' : 'NOT MET'} ${name}`);
		if (!(globalThis as { gc?: unknown }).gc)
			console.log('\n(Run with --expose-gc for a settled heap baseline and memory in use.)');
	} finally {
		sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
