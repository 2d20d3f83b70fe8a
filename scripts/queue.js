#!/usr/bin/env node
'use strict';
// Queue-mode tier: n8n as teams scale it out. Redis and PostgreSQL (Debian packages, installed by
// install-services.js) with their data in a temporary folder, one n8n main and two `n8n worker`s
// with this package in each one's user folder, the API sandbox, the credential and the example
// workflows. Proves that Fliplet executions run on the workers with correct results (binary data
// included), that concurrent and overlapping Syncs leave each key once, that several workers on
// one token finish every run past the token's rate limit with at most 3% of their requests refused
// (the credential's count of processes at 1 and at 2), and that the Fliplet Trigger fires once
// per new entry across a restart of main. Everything is stopped and removed
// afterwards, also on failure or Ctrl+C. Loopback only; fixed ports 5700-5719, 6390 and 5440.
//
//   npm run build && npm run test:queue
//   FLIPLET_QUEUE_KEEP=1 npm run test:queue     keep the n8n logs of a failed run
//   FLIPLET_QUEUE_ONLY=Trigger npm run test:queue     only the checks whose title contains it
//   FLIPLET_QUEUE_LOG_LEVEL=debug npm run test:queue  n8n's log level (default info)

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { createSandbox, TOKENS } = require('../sandbox');
const { ensureN8n, N8N_MAJOR, N8N_VERSION } = require('./install-n8n');
const { ensureServices } = require('./install-services');
const { ensureBuilt } = require('./lib/build');
const { login } = require('./lib/editorServer');
const {
	credentialFixtures,
	importCredentials,
	importWorkflows,
	readWorkflows,
	workflowFiles,
} = require('./lib/imports');
const { createCluster } = require('./lib/queueCluster');
const checks = require('./lib/queueChecks');
const { pacedCredentials, PACED_SETTINGS, queueWorkflows } = require('./lib/queueWorkflows');
const { startPostgres, startRedis } = require('./lib/services');

const PORTS = {
	main: 5700,
	mainBroker: 5710,
	workers: [
		{ health: 5701, broker: 5711 },
		{ health: 5702, broker: 5712 },
	],
	sandbox: 5703,
	redis: 6390,
	postgres: 5440,
};
const POSTGRES = { port: PORTS.postgres, database: 'n8n', user: 'n8n', password: 'n8n-queue-tier' };
const { log } = checks;

async function main() {
	const started = Date.now();
	if (N8N_MAJOR < 2) throw new Error('The queue-mode tier runs on n8n 2.x (FLIPLET_N8N_VERSION).');
	ensureN8n();
	const services = ensureServices();
	ensureBuilt(log);
	const installed = Date.now();

	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fliplet-queue-'));
	// PostgreSQL runs as its own user when this runs as root: it must reach its folder.
	fs.chmodSync(dir, 0o711);
	const running = { dir };
	const cleanUp = async () => {
		if (running.cleaning) return;
		running.cleaning = true;
		await running.cluster?.stopAll();
		await running.sandbox?.stop();
		await running.redis?.stop();
		await running.postgres?.stop();
		if (running.failed && process.env.FLIPLET_QUEUE_KEEP) {
			log(`Logs kept for inspection: ${dir}`);
			fs.rmSync(path.join(dir, 'postgres'), { recursive: true, force: true });
		} else {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	};
	const interrupt = (signal) => {
		log(`\n${signal}: stopping n8n, Redis and PostgreSQL`);
		running.cluster?.killAll();
		running.redis?.kill();
		running.postgres?.kill();
		fs.rmSync(dir, { recursive: true, force: true });
		process.exit(130);
	};
	process.once('SIGINT', interrupt);
	process.once('SIGTERM', interrupt);

	let failed = false;
	try {
		running.redis = await startRedis({
			redisServer: services.redisServer,
			dir: path.join(dir, 'redis'),
			port: PORTS.redis,
		});
		running.postgres = await startPostgres({
			pgBin: services.pgBin,
			dir: path.join(dir, 'postgres'),
			...POSTGRES,
		});
		const sandbox = createSandbox({ rateLimits: true });
		running.sandbox = sandbox;
		await sandbox.start(PORTS.sandbox, '127.0.0.1');
		log(`Redis :${PORTS.redis}, PostgreSQL :${PORTS.postgres}, sandbox ${sandbox.url}`);

		const api = checks.sandboxApi(sandbox.url);
		const seeded = Array.from({ length: 40 }, (_, i) => ({
			Email: `seed${i + 1}@example.com`,
			Name: `Seeded ${i + 1}`,
			Department: 'Seeded',
		}));
		const ids = {
			insertDataSource: await api.createDataSource('Queue Inserts'),
			syncDataSource: await api.createDataSource('Queue Sync', seeded),
			overlapDataSource: await api.createDataSource('Queue Overlap'),
			pacedDataSource: await api.createDataSource('Queue Paced'),
			pacedTwoDataSource: await api.createDataSource('Queue Paced, 2 processes'),
		};

		const cluster = createCluster({
			dir,
			ports: PORTS,
			redisPort: PORTS.redis,
			postgres: POSTGRES,
			encryptionKey: crypto.randomBytes(24).toString('hex'),
		});
		running.cluster = cluster;
		const examples = readWorkflows(workflowFiles().filter((file) => !file.includes('.workflow.')));
		const ownWorkflows = queueWorkflows(ids).map((workflow) => ({ id: workflow.id, workflow }));
		await importCredentials(cluster.main, [
			...credentialFixtures(sandbox.url, TOKENS, sandbox.cdnUrl),
			...pacedCredentials(sandbox.url, TOKENS),
		]);
		await importWorkflows(cluster.main, [...examples, ...ownWorkflows]);
		// Published from the CLI: main activates them when it starts. (Publishing through main's REST
		// API refuses the Insert node's resource mapper without the schema the editor adds.)
		await Promise.all(
			[...ownWorkflows, { id: checks.TRIGGER_WORKFLOW }].map(({ id }) =>
				cluster.main.publishWorkflow(id),
			),
		);
		log(
			`n8n ${N8N_VERSION}: imported the credential, ${examples.length} examples and ${ownWorkflows.length} webhook workflows`,
		);

		const clusterStarted = Date.now();
		await cluster.startMain();
		await cluster.startWorkers();
		log(
			`main :${PORTS.main} and workers (health :5701, :5702) ready in ${seconds(Date.now() - clusterStarted)}`,
		);
		const ownerLogin = () => login(cluster.mainUrl);
		const rest = await ownerLogin();
		await checks.waitForTriggerCursor(rest);

		for (const [title, check] of [
			['Fliplet nodes on the workers', checks.checkInsertAndBinary],
			['20 Syncs of one workflow at once', checks.checkConcurrentSyncs],
			['overlapping Syncs of the same new keys', checks.checkOverlappingSyncs],
			...PACED_SETTINGS.map((settings) => [settings.title, checks.checkSharedToken(settings)]),
			['Fliplet Trigger on main', checks.checkTrigger],
		].filter(([title]) => title.includes(process.env.FLIPLET_QUEUE_ONLY ?? ''))) {
			log(`\n${title}`);
			const checkStarted = Date.now();
			try {
				await check({ cluster, sandbox, api, ids, seeded, login: ownerLogin });
			} catch (error) {
				failed = true;
				running.failed = true;
				log(`  ✗ ${title}\n${String(error.stack ?? error).replace(/^/gm, '      ')}`);
			}
			log(`  (${seconds(Date.now() - checkStarted)})`);
		}
		if (failed) {
			for (const name of ['main', ...cluster.workerNames]) {
				log(`--- ${name} log (last lines) ---\n${cluster.readLog(name).slice(-2000)}`);
			}
		}
	} finally {
		await cleanUp();
	}
	log(
		`\nQueue-mode tier: ${failed ? 'FAILED' : 'all passed'} in ${seconds(Date.now() - installed)}` +
			(installed - started > 2000 ? ` (plus ${seconds(installed - started)} installing)` : ''),
	);
	if (failed) process.exitCode = 1;
}

function seconds(ms) {
	return `${(ms / 1000).toFixed(1)} s`;
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
