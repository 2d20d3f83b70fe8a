'use strict';
// n8n in queue mode on one machine: a main instance (editor, webhooks, triggers) and workers that
// run the executions main puts on the Redis queue, all sharing one PostgreSQL database. Each
// process has its own user folder with this package installed into it, and its own log file.

const fs = require('fs');
const path = require('path');

const { createInstance, installPackage } = require('./n8nInstance');
const { ownerSettings, stopServer, waitUntilReady } = require('./editorServer');

/** Settings every process of the cluster shares (main, workers and CLI commands). */
function sharedSettings({ redisPort, postgres, encryptionKey }) {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		N8N_ENCRYPTION_KEY: encryptionKey,
		// "Worker started execution N" and main's "Enqueued execution N" are logged at info.
		N8N_LOG_LEVEL: process.env.FLIPLET_QUEUE_LOG_LEVEL || 'info',
	};
}

/**
 * @param {{ dir: string, ports: { main: number, mainBroker: number, workers: Array<{ health: number,
 *   broker: number }> }, redisPort: number, postgres: object, encryptionKey: string }} options
 */
function createCluster(options) {
	const shared = sharedSettings(options);
	const processes = new Map();

	const folder = (name) => {
		const userFolder = path.join(options.dir, name);
		fs.mkdirSync(userFolder, { recursive: true });
		installPackage(userFolder);
		return userFolder;
	};
	const main = createInstance({
		userFolder: folder('main'),
		port: options.ports.main,
		brokerPort: options.ports.mainBroker,
		extraEnv: {
			...shared,
			...ownerSettings(),
			// Manual runs from the editor go to the workers too, not only webhooks and triggers.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		},
	});
	const workers = options.ports.workers.map((ports, index) =>
		createInstance({
			userFolder: folder(`worker-${index + 1}`),
			// Not listened on by a worker; kept apart from main's anyway.
			port: ports.health,
			brokerPort: ports.broker,
			extraEnv: {
				...shared,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(ports.health),
			},
		}),
	);

	/** Starts one process, its output appended to <name>.log; resolves once it is ready. */
	async function start(name, instance, command, readyUrl) {
		const logFile = path.join(options.dir, `${name}.log`);
		const child = instance.startServer({ command });
		const stream = fs.createWriteStream(logFile, { flags: 'a' });
		child.stdout.pipe(stream);
		child.stderr.pipe(stream);
		processes.set(name, child);
		try {
			// Three n8n processes starting at once on a busy machine: minutes, not seconds.
			await waitUntilReady(readyUrl, child, 600_000);
		} catch (error) {
			error.message += `\n--- ${name} log ---\n${readLog(name).slice(-3000)}`;
			throw error;
		}
		return child;
	}
	const readLog = (name) => {
		const file = path.join(options.dir, `${name}.log`);
		return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	};
	const mainUrl = `http://127.0.0.1:${options.ports.main}`;

	return {
		main,
		mainUrl,
		workerNames: workers.map((_, index) => `worker-${index + 1}`),
		readLog,
		startMain: () => start('main', main, 'start', mainUrl),
		startWorkers: () =>
			Promise.all(
				workers.map((worker, index) =>
					start(
						`worker-${index + 1}`,
						worker,
						'worker',
						`http://127.0.0.1:${options.ports.workers[index].health}`,
					),
				),
			),
		async stop(name) {
			const child = processes.get(name);
			processes.delete(name);
			if (child) await stopServer(child);
		},
		async stopAll() {
			await Promise.all([...processes.keys()].map((name) => this.stop(name)));
		},
		/** For an interrupted run: no waiting. */
		killAll() {
			for (const child of processes.values()) if (child.exitCode === null) child.kill('SIGKILL');
		},
		/** Execution id → the worker whose log says it started it. */
		executionsByWorker() {
			const ranBy = new Map();
			for (const name of this.workerNames) {
				for (const match of readLog(name).matchAll(/Worker started execution (\d+)/g)) {
					ranBy.set(match[1], name);
				}
			}
			return ranBy;
		},
	};
}

module.exports = { createCluster };
