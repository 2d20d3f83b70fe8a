#!/usr/bin/env node
'use strict';
// Tries the install commands as written (the blocks marked `<!-- install-check: NAME -->` in the
// README's Installation and in docs/development.md's development loop), each in a fresh home
// folder, against a local registry on 127.0.0.1 (other packages are redirected to the usual
// registry). After each one, a real n8n in that home folder must list both nodes and run the sync
// example against the sandbox.
//
// First, the release rehearsal: the package reaches that registry only through the release flow's
// publish step. A plain `npm publish` must be refused (prepublishOnly runs `n8n-node prerelease`);
// `npm publish` in release mode, as `n8n-node release` runs it in GitHub Actions, must publish.
// The README's by-hand install then installs what was published.
//
//   npm run test:install

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

const DOCUMENTS = ['README.md', 'docs/development.md'];
const PUBLISH_REFUSAL = 'Run `npm run release` to publish the package';

/** The bash blocks that follow an `<!-- install-check: NAME -->` marker in the documents. */
function documentedBlocks() {
	return DOCUMENTS.flatMap((document) => {
		const text = fs.readFileSync(path.join(REPO, document), 'utf8');
		const blocks = [...text.matchAll(/<!-- install-check: ([\w-]+) -->\s*```bash\n([\s\S]*?)```/g)];
		return blocks.map(([, name, script]) => ({ name, script, document }));
	});
}

function npm(args, options) {
	const result = spawnSync('npm', args, { encoding: 'utf8', ...options });
	if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
	return result.stdout.trim();
}

/**
 * A registry that takes this package from `npm publish` (a PUT of its manifest with the tarball
 * attached), serves what was published, and sends everything else upstream.
 */
async function startRegistry() {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const upstream = npm(['config', 'get', 'registry'], { cwd: os.tmpdir() }).replace(/\/$/, '');
	const published = { versions: {}, tarballs: new Map(), puts: 0 };
	const packument = () => ({
		name: PACKAGE_NAME,
		'dist-tags': published.latest ? { latest: published.latest } : {},
		versions: published.versions,
	});
	const server = http.createServer((request, response) => {
		const answer = (status, body) => {
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		};
		if (request.method === 'PUT' && request.url === `/${PACKAGE_NAME}`) {
			const chunks = [];
			request.on('data', (chunk) => chunks.push(chunk));
			request.on('end', () => {
				published.puts++;
				const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				for (const [version, manifest] of Object.entries(body.versions)) {
					const [file, attachment] = Object.entries(body._attachments)[0];
					published.tarballs.set(file, Buffer.from(attachment.data, 'base64'));
					const tarball = `${url}/${PACKAGE_NAME}/-/${file}`;
					published.versions[version] = { ...manifest, dist: { ...manifest.dist, tarball } };
					published.latest = body['dist-tags']?.latest ?? version;
				}
				answer(201, { ok: true });
			});
		} else if (request.url === `/${PACKAGE_NAME}`) {
			if (!published.latest) answer(404, { error: 'not found' });
			else answer(200, packument());
		} else if (request.url.startsWith(`/${PACKAGE_NAME}/-/`)) {
			const bytes = published.tarballs.get(request.url.split('/').pop());
			response.writeHead(bytes ? 200 : 404, { 'content-type': 'application/octet-stream' });
			response.end(bytes);
		} else {
			response.writeHead(302, { location: `${upstream}${request.url}` });
			response.end();
		}
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return { url, published, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * `npm publish` of this repository to the local registry, as a maintainer would type it.
 * Asynchronous, like runBlock: the registry answers the upload from this process.
 */
function publish(registry, work, npmCache, releaseMode) {
	const userconfig = path.join(work, 'publish.npmrc');
	fs.writeFileSync(userconfig, `//${new URL(registry.url).host}/:_authToken=rehearsal\n`);
	const env = withoutNpmSettings(process.env);
	delete env.RELEASE_MODE;
	return runToEnd(
		spawn('npm', ['publish', `--registry=${registry.url}`, '--provenance=false', '--no-audit'], {
			cwd: REPO,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...env,
				...(releaseMode ? { RELEASE_MODE: 'true' } : {}),
				npm_config_userconfig: userconfig,
				npm_config_cache: npmCache,
				npm_config_update_notifier: 'false',
			},
		}),
	);
}

/** The exit status of a child process, and its stdout and stderr as one text. */
function runToEnd(child) {
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, output }));
	});
}

/**
 * The release flow's publish step against the local registry: refused outside release mode, then
 * published in release mode (without provenance, which only GitHub's OIDC token can sign).
 */
async function rehearseRelease(registry, work, npmCache) {
	const refused = await publish(registry, work, npmCache, false);
	if (refused.status === 0 || registry.published.puts > 0) {
		throw new Error(`A plain npm publish was not refused:\n${refused.output}`);
	}
	if (!refused.output.includes(PUBLISH_REFUSAL)) {
		throw new Error(
			`A plain npm publish failed without saying "${PUBLISH_REFUSAL}":\n${refused.output}`,
		);
	}
	log(`  ✓ a plain npm publish is refused: "${PUBLISH_REFUSAL}"`);
	const released = await publish(registry, work, npmCache, true);
	const { version } = require(path.join(REPO, 'package.json'));
	if (released.status !== 0 || !registry.published.versions[version]) {
		throw new Error(`npm publish in release mode failed:\n${released.output}`);
	}
	const [bytes] = [...registry.published.tarballs.values()];
	log(
		`  ✓ npm publish in release mode published ${PACKAGE_NAME}@${version} ` +
			`(${(bytes.length / 1000).toFixed(1)} kB) to the local registry`,
	);
}

/**
 * Runs one documented block with bash, as a user whose home folder is `home`, from the repository.
 * Asynchronous: the local registry answers from this process while npm runs.
 */
async function runBlock(block, home, registryUrl, npmCache) {
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
	const { status, output } = await runToEnd(child);
	if (status !== 0) throw new Error(`The "${block.name}" commands failed (${status}):\n${output}`);
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
	const blocks = documentedBlocks();
	if (!blocks.some((block) => block.document === 'README.md')) {
		throw new Error('No "install-check" blocks found in README.md');
	}
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fliplet-install-check-'));
	const npmCache = npm(['config', 'get', 'cache'], { cwd: os.tmpdir() });
	const registry = await startRegistry();
	const packedBefore = new Set(fs.readdirSync(REPO).filter((name) => name.endsWith('.tgz')));
	let failed = 0;
	try {
		log('Release rehearsal (local registry):');
		await rehearseRelease(registry, work, npmCache);
		for (const block of blocks) {
			const blockStarted = Date.now();
			const home = fs.mkdtempSync(path.join(work, `${block.name}-home-`));
			const name = `${block.name} (${block.document})`;
			try {
				await runBlock(block, home, registry.url, npmCache);
				const outcome = await checkN8n(home);
				log(`  ✓ ${name}: ${outcome} (${seconds(Date.now() - blockStarted)} s)`);
			} catch (error) {
				failed++;
				log(`  ✗ ${name} (${seconds(Date.now() - blockStarted)} s)\n${error.message}`);
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
