#!/usr/bin/env node
'use strict';
// Installs the services the queue-mode tier needs, from Debian packages: Redis (n8n's queue) and
// PostgreSQL (the database main and workers share). Needs root or sudo the first time only.
//
//   node scripts/install-services.js     install what is missing, print what is used

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const PACKAGES = ['redis-server', 'postgresql'];
const POSTGRES_LIB = '/usr/lib/postgresql';

function log(message) {
	process.stdout.write(`[install-services] ${message}\n`);
}

function which(command) {
	const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() : undefined;
}

/** The newest PostgreSQL server installed from Debian's packages, if any. */
function postgresBinDir() {
	if (!fs.existsSync(POSTGRES_LIB)) return undefined;
	const versions = fs
		.readdirSync(POSTGRES_LIB)
		.filter((name) => fs.existsSync(path.join(POSTGRES_LIB, name, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(POSTGRES_LIB, versions[0], 'bin') : undefined;
}

function found() {
	const redisServer = which('redis-server');
	const pgBin = postgresBinDir();
	return redisServer && pgBin ? { redisServer, pgBin } : undefined;
}

function aptGet(args) {
	const asRoot = process.getuid?.() === 0;
	if (!asRoot && !which('sudo')) {
		throw new Error(
			`Redis and PostgreSQL are missing; install them as root: apt-get install -y ${PACKAGES.join(' ')}`,
		);
	}
	const [command, fullArgs] = asRoot ? ['apt-get', args] : ['sudo', ['apt-get', ...args]];
	log(`$ ${command} ${fullArgs.join(' ')}`);
	const result = spawnSync(command, fullArgs, {
		stdio: ['ignore', 'inherit', 'inherit'],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	if (result.status !== 0) throw new Error(`${command} ${fullArgs.join(' ')} failed`);
}

function ensureServices() {
	const ready = found();
	if (ready) return ready;
	const started = Date.now();
	if (!which('apt-get')) {
		throw new Error(
			`The queue-mode tier needs redis-server and PostgreSQL (Debian packages ${PACKAGES.join(', ')}).`,
		);
	}
	aptGet(['update', '-qq']);
	// Only the programs are used: the tier runs its own Redis and PostgreSQL in a temporary folder.
	// The lock timeout waits for another apt-get on the machine instead of failing.
	aptGet([
		'install',
		'-y',
		'-qq',
		'-o',
		'DPkg::Lock::Timeout=300',
		'--no-install-recommends',
		...PACKAGES,
	]);
	const installed = found();
	if (!installed) throw new Error('redis-server or PostgreSQL still missing after apt-get install');
	log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return installed;
}

module.exports = { ensureServices };

if (require.main === module) {
	try {
		const { redisServer, pgBin } = ensureServices();
		log(`Redis: ${redisServer}; PostgreSQL: ${pgBin}`);
	} catch (error) {
		process.stderr.write(`[install-services] ${error.message}\n`);
		process.exit(1);
	}
}
