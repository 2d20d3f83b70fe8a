'use strict';
// Redis and PostgreSQL for the queue-mode tier: each on 127.0.0.1 only, data in a folder of its
// own, nothing kept on disk after stop().

const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` user Debian's package adds. */
function asPostgresUser(command, args) {
	return process.getuid?.() === 0
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: [command, args];
}

function run(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', reject);
		child.on('close', (status) =>
			status === 0
				? resolve(output)
				: reject(new Error(`${command} ${args.join(' ')} exited with ${status}\n${output}`)),
		);
	});
}

async function waitFor(what, probe, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await probe().catch(() => false)) return;
		if (Date.now() > deadline)
			throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** `redis-server` in the foreground (a child of this process), no persistence. */
async function startRedis({ redisServer, dir, port }) {
	fs.mkdirSync(dir, { recursive: true });
	const child = spawn(
		redisServer,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
		],
		{ stdio: ['ignore', fs.openSync(path.join(dir, 'redis.log'), 'w'), 'inherit'] },
	);
	const cli = path.join(path.dirname(redisServer), 'redis-cli');
	await waitFor('Redis', async () => {
		if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
		return (await run(cli, ['-h', '127.0.0.1', '-p', String(port), 'ping'])).includes('PONG');
	});
	return {
		pid: child.pid,
		/** Redis command line client, for reading the queue. */
		cli: (args) => run(cli, ['-h', '127.0.0.1', '-p', String(port), ...args]),
		stop: () =>
			new Promise((resolve) => {
				if (child.exitCode !== null) return resolve(undefined);
				child.once('exit', () => resolve(undefined));
				child.kill('SIGTERM');
			}),
		kill: () => child.exitCode === null && child.kill('SIGKILL'),
	};
}

/** A new PostgreSQL cluster (trust authentication, loopback only) with a database for n8n. */
async function startPostgres({ pgBin, dir, port, database, user, password }) {
	fs.mkdirSync(dir, { recursive: true });
	if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres', dir]);
	const data = path.join(dir, 'data');
	const pg = (tool, args) => run(...asPostgresUser(path.join(pgBin, tool), args));
	await pg('initdb', [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'--encoding=UTF8',
		'--no-sync',
	]);
	await pg('pg_ctl', [
		'start',
		'-w',
		'-D',
		data,
		'-l',
		path.join(dir, 'postgres.log'),
		'-o',
		`-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`,
	]);
	const psql = (sql) =>
		run(path.join(pgBin, 'psql'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-U',
			'postgres',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			sql,
		]);
	await psql(`CREATE USER ${user} WITH PASSWORD '${password}'`);
	await psql(`CREATE DATABASE ${database} OWNER ${user}`);
	const stop = (mode) => pg('pg_ctl', ['stop', '-D', data, '-m', mode]).catch(() => undefined);
	return {
		psql,
		stop: () => stop('fast'),
		/** For an interrupted run: stops at once, synchronously. */
		kill: () =>
			spawnSync(
				...asPostgresUser(path.join(pgBin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate']),
			),
	};
}

module.exports = { startRedis, startPostgres };
