import { runSyncWorkflow, type SyncRun } from './engine';
import { insertOneByOne } from './naive';
import { inputJsonBytes } from './rows';
import { createDataSource, SandboxProcess, type RequestStats } from './sandboxClient';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const NAIVE_ROWS = Number(process.env.BENCH_NAIVE_ROWS ?? 1000);
const CHANGE_EVERY = 100;

interface Measured {
	run: SyncRun;
	stats: RequestStats;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

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

function line(label: string, measured: Measured): string {
	const { run, stats } = measured;
	const heap = run.memory.peakHeap - run.memory.baselineHeap;
	return [
		label.padEnd(26),
		`${stats.requests} requests (${stats.queries} reads, ${stats.commits} commits${stats.rateLimited ? `, ${stats.rateLimited}× 429` : ''})`.padEnd(
			40,
		),
		`${mb(stats.bytes)} sent`.padEnd(14),
		`node ${seconds(run.syncMs)}, wall ${seconds(run.wallMs)}`.padEnd(30),
		`heap +${mb(heap)}, peak RSS ${mb(run.memory.peakRss)}`,
	].join(' ');
}

async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	const checks: Array<[string, boolean]> = [];
	try {
		console.log(
			`Sync benchmark: sandbox ${sandbox.url}, data-source rate limit 200 requests / 10 s\n`,
		);
		let largest: { count: number; first: Measured } | undefined;
		for (const count of SIZES) {
			const inputBytes = inputJsonBytes(count);
			await sandbox.mark();
			const dataSourceId = await createDataSource(sandbox.url, `Bench ${count}`);
			console.log(`N = ${count.toLocaleString('en')} rows (input JSON ${mb(inputBytes)})`);

			const first = await syncOnce(sandbox, dataSourceId, count, 0);
			expectEqual('inserted', first.run.summary.inserted, count);
			const afterFirst = await sandbox.content(dataSourceId, 'Email');
			expectEqual('entries after the first sync', afterFirst.entries, count);
			console.log('  ' + line('sync into a fresh source', first));

			const again = await syncOnce(sandbox, dataSourceId, count, CHANGE_EVERY);
			expectEqual('updated', again.run.summary.updated, Math.ceil(count / CHANGE_EVERY));
			expectEqual('inserted on re-sync', again.run.summary.inserted, 0);
			const afterAgain = await sandbox.content(dataSourceId, 'Email');
			expectEqual('distinct keys after re-sync', afterAgain.distinctKeys, count);
			expectEqual('entries after re-sync', afterAgain.entries, count);
			console.log('  ' + line('re-sync, 1% rows changed', again));

			const share = again.stats.bytes / first.stats.bytes;
			console.log(`  re-sync sends ${(share * 100).toFixed(2)}% of the first sync's bytes`);
			const heapRatio = (first.run.memory.peakHeap - first.run.memory.baselineHeap) / inputBytes;
			const heapRatioAgain =
				(again.run.memory.peakHeap - again.run.memory.baselineHeap) / inputBytes;
			console.log(
				`  peak heap growth (garbage included): ${heapRatio.toFixed(2)}× (first) and ${heapRatioAgain.toFixed(2)}× (re-sync) the input JSON\n`,
			);
			checks.push([`N=${count}: re-sync sends ≤ 3% of the first sync's bytes`, share <= 0.03]);
			largest = { count, first };
		}

		await sandbox.mark();
		const naiveSource = await createDataSource(sandbox.url, 'Bench naive');
		await sandbox.mark();
		const naiveMs = await insertOneByOne(sandbox.url, naiveSource, NAIVE_ROWS);
		const naive = await sandbox.stats();
		const perRowBytes = naive.bytes / NAIVE_ROWS;
		const perRowMs = naiveMs / NAIVE_ROWS;
		console.log(
			`Naive, one PUT per row: N = ${NAIVE_ROWS.toLocaleString('en')} measured: ${naive.puts} requests (${naive.rateLimited} of them refused with 429 and sent again), ${mb(naive.bytes)} sent, ${seconds(naiveMs)}`,
		);
		for (const count of SIZES.filter((n) => n !== NAIVE_ROWS)) {
			console.log(
				`  N = ${count.toLocaleString('en')} extrapolated: ${count.toLocaleString('en')} requests, ${mb(perRowBytes * count)} sent, ${seconds(perRowMs * count)} (${((perRowMs * count) / 60000).toFixed(1)} min)`,
			);
		}

		if (largest) {
			const { count, first } = largest;
			// Memory in use (garbage collected at each sample), in runs of their own.
			const inputBytes = inputJsonBytes(count);
			await sandbox.mark();
			const source = await createDataSource(sandbox.url, `Bench memory ${count}`);
			const live = [
				await syncOnce(sandbox, source, count, 0, true),
				await syncOnce(sandbox, source, count, CHANGE_EVERY, true),
			].map(({ run }) => (run.memory.peakHeap - run.memory.baselineHeap) / inputBytes);
			console.log(
				`\nN = ${count.toLocaleString('en')}: peak heap in use grows by ${live[0].toFixed(2)}× (first sync) and ${live[1].toFixed(2)}× (re-sync) the input JSON (${mb(inputBytes)}), n8n's own copy of the input items included`,
			);
			checks.push([`N=${count}: peak heap in use ≤ 4× the input JSON`, Math.max(...live) <= 4]);
			const ratio = count / first.stats.requests;
			console.log(
				`N = ${count.toLocaleString('en')}: Sync needs ${ratio.toFixed(0)}× fewer requests than one per row`,
			);
			if (count >= 100_000) {
				checks.push([`N=${count}: first sync in ≤ 120 requests`, first.stats.requests <= 120]);
				checks.push([`N=${count}: first sync in ≤ 15 s (wall)`, first.run.wallMs <= 15_000]);
			}
			checks.push([`N=${count}: ≥ 500× fewer requests than one per row`, ratio >= 500]);
		}
		console.log('\nTargets:');
		for (const [name, ok] of checks) console.log(`  ${ok ? 'met   ' : 'MISSED'} ${name}`);
		if (!(globalThis as { gc?: unknown }).gc)
			console.log('\n(Run with --expose-gc for a settled heap baseline.)');
	} finally {
		sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
