#!/usr/bin/env node
'use strict';
// Tries the README's install commands as written ("Install in your n8n": the blocks marked
// `<!-- install-check: NAME -->`), each in a fresh home folder, with this package packed and
// served by a local registry on 127.0.0.1 (other packages are redirected to the usual registry).
// After each one, a real n8n in that home folder must list both nodes and run the sync example
// against the sandbox.
//
//   npm run test:install

const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const { createSandbox } = require('../sandbox');
const { ensureN8n, isInstalled } = require('./install-n8n');
const { ensureBuilt } = require('./lib/build');
const {
	createInstance,
	freePort,
	withoutNpmSettings,
	REPO,
	PACKAGE_NAME,
} = require('./lib/n8nInstance');
const { ownerSettings, waitUntilReady, login, stopServer } = require('./lib/editorServer');
const { importSandboxCredential } = require('./lib/editorSession');
const { importWorkflows, readWorkflows } = require('./lib/imports');

const SYNC_EXAMPLE = path.join(REPO, 'examples', 'sync-spreadsheet.json');
const NODE_TYPES = [`${PACKAGE_NAME}.fliplet`, `${PACKAGE_NAME}.flipletTrigger`];

function log(message = '') {
	process.stdout.write(`${message}\n`);
}

/** The README's bash blocks that follow an `<!-- install-check: NAME -->` marker. */
function readmeBlocks() {
	const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
	const blocks = [...readme.matchAll(/<!-- install-check: ([\w-]+) -->\s*```bash\n([\s\S]*?)```/g)];
	return blocks.map(([, name, script]) => ({ name, script }));
}

function npm(args, options) {
	const result = spawnSync('npm', args, { encoding: 'utf8', ...options });
	if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
	return result.stdout.trim();
}

/** A registry that serves this package from a tarball and sends everything else upstream. */
async function startRegistry(tarball) {
	const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	const bytes = fs.readFileSync(tarball);
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const file = `${PACKAGE_NAME}-${manifest.version}.tgz`;
	const upstream = npm(['config', 'get', 'registry'], { cwd: os.tmpdir() }).replace(/\/$/, '');
	const packument = {
		name: PACKAGE_NAME,
		'dist-tags': { latest: manifest.version },
		versions: {
			[manifest.version]: {
				...manifest,
				dist: {
					tarball: `${url}/${PACKAGE_NAME}/-/${file}`,
					shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
					integrity: `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`,
				},
			},
		},
	};
	const server = http.createServer((request, response) => {
		if (request.url === `/${PACKAGE_NAME}`) {
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify(packument));
		} else if (request.url === `/${PACKAGE_NAME}/-/${file}`) {
			response.writeHead(200, { 'content-type': 'application/octet-stream' });
			response.end(bytes);
		} else {
			response.writeHead(302, { location: `${upstream}${request.url}` });
			response.end();
		}
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Runs one README block with bash, as a user whose home folder is `home`, from the repository.
 * Asynchronous: the local registry answers from this process while npm runs.
 */
function runBlock(block, home, registryUrl, npmCache) {
	const child = spawn('bash', ['-euo', 'pipefail', '-c', block.script], {
		cwd: REPO,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...withoutNpmSettings(process.env),
			HOME: home,
			npm_config_registry: registryUrl,
			npm_config_cache: npmCache,
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		},
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (status) =>
			status === 0
				? resolve()
				: reject(new Error(`The "${block.name}" commands failed (${status}):\n${output}`)),
		);
	});
}

/** n8n in that home folder: both nodes listed, and the sync example runs against a sandbox. */
async function checkN8n(home) {
	const sandbox = createSandbox();
	await sandbox.start(0, '127.0.0.1');
	const instance = createInstance({
		userFolder: home,
		port: await freePort(),
		brokerPort: await freePort(),
		extraEnv: ownerSettings(),
	});
	try {
		await importSandboxCredential(instance, sandbox.url);
		const [example] = await importWorkflows(instance, readWorkflows([SYNC_EXAMPLE]));
		const server = instance.startServer();
		let types;
		try {
			const apiUrl = `http://127.0.0.1:${instance.env.N8N_PORT}`;
			await waitUntilReady(apiUrl, server);
			const rest = await login(apiUrl);
			types = (await rest.request('GET', '/types/nodes.json')).map((node) => node.name);
		} finally {
			await stopServer(server);
		}
		const missing = NODE_TYPES.filter((type) => !types.includes(type));
		if (missing.length) throw new Error(`n8n did not load ${missing.join(', ')}`);
		const run = await instance.cli(['execute', `--id=${example.id}`, '--rawOutput'], {
			allowFailure: true,
		});
		const commits = sandbox.requests.filter((request) => /\/commit$/.test(request.path));
		if (run.status !== 0 || !commits.length) {
			throw new Error(`The sync example did not run:\n${run.stdout.slice(-1500)}\n${run.stderr}`);
		}
		return `both nodes listed; the sync example ran (${commits.length} commits)`;
	} finally {
		await sandbox.stop();
	}
}

async function main() {
	const started = Date.now();
	if (!isInstalled()) log('First run: installing n8n into the cache (a few minutes)…');
	ensureN8n();
	ensureBuilt(log);
	const blocks = readmeBlocks();
	if (!blocks.length) throw new Error('No "install-check" blocks found in README.md');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fliplet-install-check-'));
	const npmCache = npm(['config', 'get', 'cache'], { cwd: os.tmpdir() });
	const tarball = path.join(
		work,
		npm(['pack', '--silent', `--pack-destination=${work}`], { cwd: REPO }),
	);
	const registry = await startRegistry(tarball);
	const packedBefore = new Set(fs.readdirSync(REPO).filter((name) => name.endsWith('.tgz')));
	let failed = 0;
	try {
		for (const block of blocks) {
			const blockStarted = Date.now();
			const home = fs.mkdtempSync(path.join(work, `${block.name}-home-`));
			try {
				await runBlock(block, home, registry.url, npmCache);
				const outcome = await checkN8n(home);
				log(`  ✓ ${block.name}: ${outcome} (${seconds(Date.now() - blockStarted)} s)`);
			} catch (error) {
				failed++;
				log(`  ✗ ${block.name} (${seconds(Date.now() - blockStarted)} s)\n${error.message}`);
			}
		}
	} finally {
		await registry.close();
		for (const name of fs.readdirSync(REPO)) {
			if (name.endsWith('.tgz') && !packedBefore.has(name)) fs.rmSync(path.join(REPO, name));
		}
		fs.rmSync(work, { recursive: true, force: true });
	}
	log(`Install check: ${seconds(Date.now() - started)} s`);
	log(`${blocks.length - failed} passed, ${failed} failed`);
	if (failed) process.exitCode = 1;
}

const seconds = (ms) => (ms / 1000).toFixed(1);

main().catch((error) => {
	process.stderr.write(`Install check failed: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
