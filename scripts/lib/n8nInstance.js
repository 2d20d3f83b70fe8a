'use strict';
// One real n8n instance in a user folder of its own: the built package installed into it as a
// community package, outbound calls off, and the CLI commands the tier and `npm start` use.

const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');

const { ensureN8n, N8N_MAJOR } = require('../install-n8n');

const REPO = path.resolve(__dirname, '..', '..');
const PACKAGE_NAME = require(path.join(REPO, 'package.json')).name;

/** Settings that keep n8n from calling home or out to the internet. */
const OFFLINE_SETTINGS = {
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
	N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
	N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
	N8N_AI_ENABLED: 'false',
	EXTERNAL_FRONTEND_HOOKS_URLS: '',
	N8N_NPS_SURVEY_ENABLED: 'false',
	// These modules fetch lists from n8n's servers at start-up (n8n 1.x has neither, and refuses
	// to start when asked to disable a module it does not know).
	...(N8N_MAJOR >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry,promotions' } : {}),
};

/** n8n 1.x keeps binary data in memory unless told otherwise; 2.x stores it by id on disk. */
const BINARY_DATA_SETTINGS = N8N_MAJOR < 2 ? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } : {};

/**
 * @param {{ userFolder: string, encryptionKey?: string, port?: number, brokerPort?: number,
 *   extraEnv?: Record<string, string> }} options
 */
let cliRuns = 0;

function createInstance(options) {
	const { nodeBin, n8nBin } = ensureN8n();
	// n8n keeps some files in the system temp folder (data table uploads in n8nDataTableUploads):
	// inside the user folder they go when it goes.
	const tempFolder = path.join(options.userFolder, 'tmp');
	fs.mkdirSync(tempFolder, { recursive: true });
	const env = {
		...withoutNpmSettings(process.env),
		...OFFLINE_SETTINGS,
		PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: options.userFolder,
		TMPDIR: tempFolder,
		...(options.encryptionKey ? { N8N_ENCRYPTION_KEY: options.encryptionKey } : {}),
		N8N_PORT: String(options.port ?? 5678),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_RUNNERS_ENABLED: 'true',
		...(options.brokerPort ? { N8N_RUNNERS_BROKER_PORT: String(options.brokerPort) } : {}),
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL || 'warn',
		DB_SQLITE_POOL_SIZE: '2',
		...BINARY_DATA_SETTINGS,
		...(options.extraEnv ?? {}),
	};

	return {
		env,
		userFolder: options.userFolder,
		/**
		 * Runs an n8n CLI command to completion (asynchronously, so a sandbox in this process keeps
		 * answering); rejects with its output when it fails unless `allowFailure`.
		 */
		cli(args, { allowFailure = false, extraEnv = {} } = {}) {
			// Output goes through files: n8n exits right after printing, which cuts a piped stdout short.
			const base = path.join(options.userFolder, `cli-${process.pid}-${++cliRuns}`);
			const out = fs.openSync(`${base}.out`, 'w');
			const err = fs.openSync(`${base}.err`, 'w');
			return new Promise((resolve, reject) => {
				const child = spawn(nodeBin, [n8nBin, ...args], {
					env: { ...env, ...extraEnv },
					stdio: ['ignore', out, err],
				});
				child.on('error', reject);
				child.on('close', (status) => {
					fs.closeSync(out);
					fs.closeSync(err);
					const stdout = fs.readFileSync(`${base}.out`, 'utf8');
					const stderr = fs.readFileSync(`${base}.err`, 'utf8');
					fs.rmSync(`${base}.out`);
					fs.rmSync(`${base}.err`);
					if (status !== 0 && !allowFailure) {
						reject(new Error(`n8n ${args.join(' ')} exited with ${status}\n${stdout}\n${stderr}`));
					} else {
						resolve({ status, stdout, stderr });
					}
				});
			});
		},
		/**
		 * Activates a workflow from the CLI; a server started afterwards runs it (2.x publishes the
		 * current version; 1.x has no publish:workflow).
		 */
		publishWorkflow(id) {
			return this.cli(
				N8N_MAJOR >= 2
					? ['publish:workflow', `--id=${id}`]
					: ['update:workflow', `--id=${id}`, '--active=true'],
			);
		},
		/** Starts `n8n start` (or `n8n worker`) in the background. */
		startServer({ inheritOutput = false, command = 'start' } = {}) {
			return spawn(nodeBin, [n8nBin, command], {
				env,
				stdio: inheritOutput ? 'inherit' : ['ignore', 'pipe', 'pipe'],
			});
		},
	};
}

function withoutNpmSettings(env) {
	return Object.fromEntries(
		Object.entries(env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
	);
}

/**
 * Installs the built package into the instance's community-package folder, so n8n loads it
 * under its package name (node type "n8n-nodes-fliplet.fliplet"), as after an install from npm.
 */
function installPackage(userFolder) {
	const dist = path.join(REPO, 'dist');
	if (!fs.existsSync(path.join(dist, 'nodes', 'Fliplet', 'Fliplet.node.js'))) {
		throw new Error('The package is not built: run "npm run build" first.');
	}
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.cpSync(dist, path.join(target, 'dist'), { recursive: true });
	const packageJson = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	const built = (file) => fs.existsSync(path.join(REPO, file));
	const missing = [...packageJson.n8n.nodes, ...packageJson.n8n.credentials].filter(
		(file) => !built(file),
	);
	if (missing.length) {
		// n8n refuses a whole package when one listed file is missing: load what is built.
		process.stdout.write(`Not built yet, left out: ${missing.join(', ')}\n`);
		packageJson.n8n.nodes = packageJson.n8n.nodes.filter(built);
		packageJson.n8n.credentials = packageJson.n8n.credentials.filter(built);
	}
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(packageJson, null, 2));
	const nodesPackageJson = path.join(userFolder, '.n8n', 'nodes', 'package.json');
	fs.writeFileSync(
		nodesPackageJson,
		JSON.stringify({
			name: 'installed-nodes',
			private: true,
			dependencies: { [PACKAGE_NAME]: '*' },
		}),
	);
	return target;
}

/** A TCP port nothing listens on right now (for instances that must not meet other runs). */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

module.exports = {
	freePort,
	createInstance,
	installPackage,
	withoutNpmSettings,
	REPO,
	PACKAGE_NAME,
	OFFLINE_SETTINGS,
};
