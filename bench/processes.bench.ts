/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { fork, type ChildProcess } from 'child_process';
import { join } from 'path';

import { COMMUNICATE_LIMIT, DATA_SOURCE_LIMIT } from '../nodes/Fliplet/transport/rateLimits';
import { refusalFigures, type Arrival, type RefusalFigures } from '../test/harness/refusals';
import type { WorkerRun, WorkerTask } from './processWorker';
import { createDataSource, SandboxProcess } from './sandboxClient';

// Each request's body is hashed by the sandbox, so a request sent again is told from the others.
process.env.BENCH_HASH_BODIES = '1';

const COUNTS = (process.env.BENCH_PROCESSES ?? '1,2,4').split(',').map(Number).filter(Boolean);
const SETTINGS = (process.env.BENCH_SETTINGS ?? 'default,processes').split(',');
/** Runs of each scenario: its figures vary from run to run with the machine's load. */
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
/** Data-source requests of all processes together: Syncs in commits of SYNC_CHUNK rows. */
const DATA_REQUESTS = Number(process.env.BENCH_DATA_REQUESTS ?? 2400);
const SYNC_CHUNK = 5;
/** Email requests of all processes together: batches of EMAIL_BATCH messages. */
const EMAIL_REQUESTS = Number(process.env.BENCH_EMAIL_REQUESTS ?? 120);
const EMAIL_BATCH = 10;

const GOALS = {
	dataRefused: 0.03,
	emailRefused: 0.01,
	/** Of the best pace the limit's windows allow, for runs of at least `paceWindows` windows. */
	pace: 0.8,
	paceWindows: 3,
	refusalRun: 2,
	/** A process alone that met no refusal sends a window's allowance of email within this. */
	emailWindowMs: 2000,
};

interface Row {
	/** When each process finished its work, in seconds from the area's first arrival. */
	endedAt: number[];
	processes: number;
	setting: number;
	area: 'data sources' | 'email';
	figures: RefusalFigures;
	/** Milliseconds from the first arrival until the limit's worth of requests was accepted. */
	firstWindowMs: number;
	errors: string[];
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Starts `count` n8n processes and waits until each has loaded n8n-core and the package. */
async function startWorkers(count: number): Promise<ChildProcess[]> {
	const workers = Array.from({ length: count }, () =>
		fork(join(__dirname, 'processWorker.js'), [], { stdio: 'inherit' }),
	);
	await Promise.all(
		workers.map(
			(worker) =>
				new Promise<void>((resolve, reject) => {
					worker.once('message', () => resolve());
					worker.once('exit', (code) => reject(new Error(`A worker exited (${code})`)));
				}),
		),
	);
	return workers;
}

async function scenario(sandbox: SandboxProcess, count: number, setting: number): Promise<Row[]> {
	const rows = Math.round(DATA_REQUESTS / count) * SYNC_CHUNK;
	const items = Math.round(EMAIL_REQUESTS / count) * EMAIL_BATCH;
	const tasks: WorkerTask[] = [];
	for (let index = 0; index < count; index++) {
		tasks.push({
			index,
			sandboxUrl: sandbox.url,
			processes: setting,
			sync: {
				dataSourceId: await createDataSource(
					sandbox.url,
					`Processes ${count}/${setting} #${index}`,
				),
				rows,
				chunkSize: SYNC_CHUNK,
			},
			email: { items, batchSize: EMAIL_BATCH },
		});
	}
	const workers = await startWorkers(count);
	await sandbox.mark();
	const startAt = Date.now() + 1000;
	const runs = await Promise.all(
		workers.map(
			(worker, index) =>
				new Promise<{ sync?: WorkerRun; email?: WorkerRun }>((resolve, reject) => {
					worker.on('message', (message: { done?: any; failed?: string }) => {
						if (message.done) resolve(message.done);
						if (message.failed) reject(new Error(message.failed));
					});
					worker.send({ task: tasks[index], startAt });
				}),
		),
	);
	for (const worker of workers) worker.disconnect();

	const errors = (area: 'sync' | 'email') =>
		runs.flatMap((run, index) =>
			run[area]?.error ? [`process ${index}: ${run[area]!.error}`] : [],
		);
	const syncErrors = errors('sync');
	if (syncErrors.length || errors('email').length) process.exitCode = 1;
	const firstEnd = (area: 'sync' | 'email') => Math.min(...runs.map((run) => run[area]!.endedAt));
	const data = await sandbox.arrivals('^/v1/data-sources');
	const email = await sandbox.arrivals('^/v1/communicate/');
	/** From the first arrival until `limit` requests were accepted. */
	const firstWindowMs = (arrivals: Arrival[], limit: number) => {
		const times = arrivals.map((arrival) => arrival.at).sort((a, b) => a - b);
		const accepted = arrivals
			.filter((arrival) => arrival.status !== 429)
			.map((arrival) => arrival.at)
			.sort((a, b) => a - b);
		return (accepted[limit - 1] ?? Infinity) - times[0];
	};
	for (const task of tasks) {
		const content = await sandbox.content(task.sync!.dataSourceId, 'Email');
		if (content.entries !== rows || content.distinctKeys !== rows) {
			syncErrors.push(`data source ${task.sync!.dataSourceId}: ${content.entries} entries`);
			process.exitCode = 1;
		}
	}
	const endsOf = (area: 'sync' | 'email', arrivals: Arrival[]) => {
		const first = Math.min(...arrivals.map((arrival) => arrival.at));
		return runs.map((run) => (run[area]!.endedAt - first) / 1000);
	};
	return [
		{
			endedAt: endsOf('sync', data),
			processes: count,
			setting,
			area: 'data sources',
			figures: refusalFigures(data, DATA_SOURCE_LIMIT, firstEnd('sync')),
			firstWindowMs: firstWindowMs(data, DATA_SOURCE_LIMIT.limit),
			errors: syncErrors,
		},
		{
			endedAt: endsOf('email', email),
			processes: count,
			setting,
			area: 'email',
			figures: refusalFigures(email, COMMUNICATE_LIMIT, firstEnd('email')),
			firstWindowMs: firstWindowMs(email, COMMUNICATE_LIMIT.limit),
			errors: errors('email'),
		},
	];
}

/** Each goal that applies to the row, and whether its figure meets it. */
function goalsOf(row: Row): Array<{ goal: string; met: boolean }> {
	const { figures: f } = row;
	const share = f.refused / Math.max(1, f.requests);
	const goals: Array<{ goal: string; met: boolean }> = [];
	if (row.setting > 1) {
		const most = row.area === 'email' ? GOALS.emailRefused : GOALS.dataRefused;
		goals.push({ goal: `refused ≤ ${percent(most)}`, met: share <= most });
	}
	if (row.area === 'data sources' && f.bestWindows >= GOALS.paceWindows) {
		goals.push({ goal: `pace ≥ ${percent(GOALS.pace)}`, met: f.pace >= GOALS.pace });
	}
	if (row.area === 'email' && row.processes === 1) {
		goals.push({
			goal: `${COMMUNICATE_LIMIT.limit} within ${GOALS.emailWindowMs / 1000} s (${(row.firstWindowMs / 1000).toFixed(2)} s)`,
			met: row.firstWindowMs <= GOALS.emailWindowMs,
		});
	}
	goals.push({ goal: `run ≤ ${GOALS.refusalRun}`, met: f.longestRefusalRun <= GOALS.refusalRun });
	return goals;
}

function printRow(row: Row): void {
	const { figures: f } = row;
	const share = f.refused / Math.max(1, f.requests);
	const goals = goalsOf(row);
	const met = goals.every((goal) => goal.met) && !row.errors.length;
	console.log(
		`| ${row.processes} | ${row.setting} | ${row.area} | ${f.requests} | ${f.refused} (${percent(share)}) | ${percent(f.pace)} (${f.bestWindows} windows) | ${percent(f.busyPace ?? 0)} | ${f.longestRefusalRun} | ${goals.map((goal) => goal.goal).join(', ')}: ${met ? 'MET' : 'NOT MET'} |`,
	);
	for (const error of row.errors) console.log(`  ${error}`);
}

/** When each process finished its work: the tail a process left alone runs at its own allowance. */
function printEnds(rows: Row[]): void {
	for (const row of rows.filter((r) => r.processes > 1)) {
		const ends = row.endedAt.map((end) => end.toFixed(1)).join(', ');
		console.log(
			`- ${row.processes} processes, count ${row.setting}, ${row.area}: finished at ${ends} s`,
		);
	}
}

export async function main(): Promise<void> {
	const sandbox = await SandboxProcess.start();
	console.log(
		`Processes on one token: sandbox ${sandbox.url}; each process runs a Sync (commits of ${SYNC_CHUNK} rows, ${DATA_REQUESTS} data-source requests in all) and email batches (${EMAIL_BATCH} a request, ${EMAIL_REQUESTS} requests in all) at once, through n8n-core`,
	);
	console.log(
		"Pace: the least time the limit's windows allow for the accepted requests (the limit at once, then again each window) over the time they took (whole run; and until the first process finished its work).",
	);
	console.log(
		'| Processes | Credential setting | Area | Requests | Refused | Pace | Pace while all busy | Longest refusal run of one request | Goal |',
	);
	console.log('| --: | --: | --- | --: | --: | --: | --: | --: | --- |');
	const all: Row[] = [];
	try {
		for (const count of COUNTS) {
			for (const setting of count === 1 ? ['default'] : SETTINGS) {
				for (let run = 0; run < REPEAT; run++) {
					const rows = await scenario(sandbox, count, setting === 'default' ? 1 : count);
					rows.forEach(printRow);
					all.push(...rows);
				}
			}
		}
	} finally {
		sandbox.stop();
	}
	console.log('\nWhen each process finished its work, from the first request of its area:');
	printEnds(all);
}
