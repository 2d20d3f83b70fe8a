/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// A check of Sync's targeted read: a 1-row and a 1,000-row Sync into data sources of 10 and of
// BENCH_TARGETED_ENTRIES entries (default 1,000,000), seeded straight into the sandbox's store.
// Prints requests and the median time of BENCH_TARGETED_RUNS runs (default 7), after one warm-up
// run per data source (it builds the sandbox's index of the key column). `node bench/targeted.js`.
import { runSyncWorkflow } from './engine';
import { createDataSource, SandboxProcess } from './sandboxClient';

const BIG = Number(process.env.BENCH_TARGETED_ENTRIES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_TARGETED_RUNS ?? 7);

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	const sandbox = await SandboxProcess.start();
	const lines: string[] = [];
	try {
		for (const rows of [1, 1000]) {
			const times: Record<number, number> = {};
			for (const entries of [10, BIG]) {
				const id = await createDataSource(sandbox.url, `Targeted ${rows} into ${entries}`);
				await sandbox.seed(id, entries);
				const parameters = {
					dataSource: { __rl: true, mode: 'id', value: String(id) },
					keyColumns: 'Email',
				};
				// Each run changes the rows' score (every row, then none, alternately): an update each time.
				const run = async (n: number) =>
					await runSyncWorkflow(
						sandbox.url,
						{ count: rows, changeEvery: n % 2 ? 1 : 0 },
						parameters,
						{ settleHeap: false },
					);
				const first = await run(0);
				const ms: number[] = [];
				let requests = 0;
				for (let n = 1; n <= RUNS; n++) {
					await sandbox.mark();
					const result = await run(n);
					ms.push(result.wallMs);
					requests = (await sandbox.stats()).requests;
				}
				times[entries] = median(ms);
				lines.push(
					`${rows} row(s) into ${entries.toLocaleString('en')} entries: ${requests} requests, median ${times[entries]} ms (first run ${first.wallMs} ms)`,
				);
			}
			lines.push(`  ratio ${(times[BIG] / times[10]).toFixed(2)}× (goal ≤ 1.5×)`);
		}
	} finally {
		sandbox.stop();
	}
	console.log(lines.join('\n'));
}

void main();
