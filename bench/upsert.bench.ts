/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Sync of a few rows into a big data source: one changed row, one new row, and 1,000 rows half of
// them new, into data sources of 10, 100,000 and 1,000,000 entries (BENCH_UPSERT_ENTRIES) seeded
// straight into the sandbox's store. A run's cost must follow the rows it is given, not the data
// source: each case prints its requests beside the least a run that reads only what it needs
// sends, and its Sync time (median of BENCH_UPSERT_RUNS runs) beside its time into 10 entries and,
// over a modelled link (BENCH_RTT_MS…), beside that run's floor: its round trips one after
// another plus its bytes at the link's bandwidth.
import { runSyncWorkflow } from './engine';
import {
	createDataSource,
	SandboxProcess,
	type LinkSettings,
	type RequestStats,
} from './sandboxClient';

const SIZES = (process.env.BENCH_UPSERT_ENTRIES ?? '10,100000,1000000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_UPSERT_RUNS ?? 15);
/** Keys of the new rows of each case start far beyond the seeded ones, so cases never meet. */
const NEW_KEYS = 10_000_000;

interface Case {
	name: string;
	/** Requests of a run that reads only what it needs, and how many of them go one after another. */
	least: number;
	roundTrips: number;
	mostRequests: number;
	/** The rows of run `n` (0: the warm-up) into a data source of `entries` seeded entries. */
	rowsOf: (entries: number, n: number) => { count: number; start: number; changeEvery: number };
}

// changeEvery 1 changes every row's score, 0 puts it back: each run updates the rows it finds.
const toggled = (n: number) => (n % 2 ? 1 : 0);
const CASES: Case[] = [
	{
		name: '1 changed row',
		least: 2,
		roundTrips: 2,
		mostRequests: 3,
		rowsOf: (entries, n) => ({ count: 1, start: Math.floor(entries / 2), changeEvery: toggled(n) }),
	},
	{
		name: '1 new row',
		least: 3,
		roundTrips: 3,
		mostRequests: 3,
		rowsOf: (_entries, n) => ({ count: 1, start: NEW_KEYS + n, changeEvery: 0 }),
	},
	{
		// The update and the insert commit travel together: three round trips.
		name: '1,000 rows, half new',
		least: 4,
		roundTrips: 3,
		mostRequests: 6,
		rowsOf: (_entries, n) =>
			n === 0
				? { count: 500, start: 2 * NEW_KEYS, changeEvery: 0 }
				: { count: 1000, start: 2 * NEW_KEYS + 500 * (n - 1), changeEvery: toggled(n) },
	},
];

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value)} ms`;

/** Round trips one after another, plus the run's bytes at the link's bandwidth. */
function floorMs(link: LinkSettings | undefined, stats: RequestStats, roundTrips: number): number {
	if (!link || !stats.link) return 0;
	const at = (bytes: number, mbit: number) => (mbit > 0 ? (bytes * 8) / (mbit * 1000) : 0);
	return (
		roundTrips * link.rttMs +
		at(stats.link.bytesUp, link.upMbit) +
		at(stats.link.bytesDown, link.downMbit)
	);
}

interface Measured {
	requests: number;
	syncMs: number;
	floorMs: number;
	warmUpMs: number;
	warmUpRequests: number;
}

async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	const { link } = sandbox;
	const results = new Map<string, Map<number, Measured>>();
	const checks: Array<[string, boolean]> = [];
	try {
		console.log(
			`Upsert benchmark: ${RUNS} runs a case after a warm-up run (which builds the sandbox's index of the key column), ${link ? `link ${link.rttMs} ms round trip, ${link.upMbit || 'unlimited'}/${link.downMbit || 'unlimited'} Mbit/s` : 'loopback'}\n`,
		);
		// n8n's engine and the node warm up first, so that the first size measured is not the slowest.
		const warmUpSource = await createDataSource(sandbox.url, 'Upsert warm-up');
		await sandbox.seed(warmUpSource, 10);
		for (const test of CASES) {
			for (let n = 0; n <= RUNS; n++) {
				await runSyncWorkflow(
					sandbox.url,
					test.rowsOf(10, n),
					{
						dataSource: { __rl: true, mode: 'id', value: String(warmUpSource) },
						keyColumns: 'Email',
					},
					{ settleHeap: false },
				);
			}
		}
		for (const entries of SIZES) {
			const id = await createDataSource(sandbox.url, `Upsert into ${entries}`);
			const seeding = Date.now();
			await sandbox.seed(id, entries);
			console.log(`${entries.toLocaleString('en')} entries seeded in ${ms(Date.now() - seeding)}`);
			const parameters = {
				dataSource: { __rl: true, mode: 'id', value: String(id) },
				keyColumns: 'Email',
			};
			for (const test of CASES) {
				const run = async (n: number) =>
					await runSyncWorkflow(sandbox.url, test.rowsOf(entries, n), parameters, {
						settleHeap: false,
					});
				await sandbox.mark();
				const warmUp = await run(0);
				const warmUpRequests = (await sandbox.stats()).requests;
				const times: number[] = [];
				const floors: number[] = [];
				let requests = 0;
				for (let n = 1; n <= RUNS; n++) {
					await sandbox.mark();
					const result = await run(n);
					const stats = await sandbox.stats();
					times.push(result.syncMs);
					floors.push(floorMs(link, stats, test.roundTrips));
					requests = Math.max(requests, stats.requests);
				}
				const measured = {
					requests,
					syncMs: median(times),
					floorMs: median(floors),
					warmUpMs: warmUp.syncMs,
					warmUpRequests,
				};
				if (!results.has(test.name)) results.set(test.name, new Map());
				results.get(test.name)!.set(entries, measured);
			}
		}
	} finally {
		sandbox.stop();
	}

	console.log(
		'\n| Rows | Into | Requests (least) | Sync time, median | Floor | Time ÷ floor | Time ÷ into 10 | Warm-up run |',
	);
	console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
	for (const test of CASES) {
		const bySize = results.get(test.name)!;
		const small = bySize.get(Math.min(...SIZES))!;
		for (const [entries, m] of bySize) {
			const overFloor = m.floorMs ? `${(m.syncMs / m.floorMs).toFixed(2)}×` : '–';
			const overSmall = m.syncMs / small.syncMs;
			console.log(
				`| ${test.name} | ${entries.toLocaleString('en')} | ${m.requests} (${test.least}) | ${ms(m.syncMs)} | ${m.floorMs ? ms(m.floorMs) : '–'} | ${overFloor} | ${overSmall.toFixed(2)}× | ${m.warmUpRequests} requests, ${ms(m.warmUpMs)} |`,
			);
			checks.push([
				`${test.name} into ${entries.toLocaleString('en')} entries: at most ${test.mostRequests} requests`,
				m.requests <= test.mostRequests,
			]);
			if (test.name !== CASES[2].name && entries !== Math.min(...SIZES))
				checks.push([
					`${test.name} into ${entries.toLocaleString('en')} entries within 1.5× its time into ${Math.min(...SIZES).toLocaleString('en')}`,
					overSmall <= 1.5,
				]);
		}
	}
	console.log('\nGoals:');
	for (const [name, ok] of checks) console.log(`  ${ok ? 'met    ' : 'NOT MET'} ${name}`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
