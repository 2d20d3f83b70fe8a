#!/usr/bin/env node
'use strict';
// `npm start`: a real n8n editor on http://localhost:5678 with this package installed, the API
// sandbox running as its own process, a ready "Fliplet Sandbox" credential and the example
// workflows. The first run installs n8n into a cache folder (minutes); later runs start in seconds.
//
//   N8N_PORT=5679 npm start             another editor port
//   FLIPLET_SANDBOX_PORT=5690 npm start another sandbox port

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const { TOKENS } = require('../sandbox');
const { isInstalled, ensureN8n, N8N_VERSION } = require('./install-n8n');
const { ensureBuilt } = require('./lib/build');
const { createInstance, installPackage, REPO } = require('./lib/n8nInstance');
const { OWNER, ownerSettings, waitUntilReady, login, stopServer } = require('./lib/editorServer');
const { importWorkflows, readWorkflows } = require('./lib/imports');
const { DEFAULT_PORT: SANDBOX_PORT } = require('./sandbox');

const EDITOR_PORT = Number(process.env.N8N_PORT || 5678);
const USER_FOLDER = path.join(REPO, '.cache', 'n8n-editor');
const EXAMPLES_DIR = path.join(REPO, 'examples');

function log(message = '') {
	process.stdout.write(`${message}\n`);
}

async function startSandboxProcess(port) {
	const child = spawn(process.execPath, [path.join(__dirname, 'sandbox.js')], {
		env: { ...process.env, FLIPLET_SANDBOX_PORT: String(port) },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = `http://127.0.0.1:${port}`;
	for (let attempt = 0; attempt < 50; attempt++) {
		if (child.exitCode !== null) throw new Error(`The sandbox could not start on port ${port}.`);
		try {
			if ((await fetch(`${url}/__sandbox/state`)).ok) return { child, url };
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
	throw new Error(`The sandbox did not answer on ${url}.`);
}

/** The "Fliplet Sandbox" credential, re-imported on each start so it follows the sandbox port. */
async function importSandboxCredential(instance, sandboxUrl) {
	const file = path.join(USER_FOLDER, 'credential.import.json');
	const credential = {
		id: 'flipletSandbox01',
		name: 'Fliplet Sandbox',
		type: 'flipletApi',
		data: { accessToken: TOKENS.org, region: 'custom', baseUrl: sandboxUrl },
	};
	fs.writeFileSync(file, JSON.stringify([credential]));
	await instance.cli(['import:credentials', `--input=${file}`]);
	fs.rmSync(file);
}

/** Examples are imported once, so changes made to them in the editor survive restarts. */
async function importExamplesOnce(instance) {
	const marker = path.join(USER_FOLDER, '.examples-imported');
	const files = fs.existsSync(EXAMPLES_DIR)
		? fs
				.readdirSync(EXAMPLES_DIR)
				.filter((name) => name.endsWith('.json'))
				.sort()
		: [];
	const done = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n') : [];
	const fresh = files.filter((name) => !done.includes(name));
	if (fresh.length) {
		const paths = fresh.map((name) => path.join(EXAMPLES_DIR, name));
		await importWorkflows(instance, readWorkflows(paths));
		fs.writeFileSync(marker, [...done, ...fresh].filter(Boolean).join('\n'));
	}
	return files;
}

async function main() {
	if (!isInstalled()) {
		log(`First run: installing n8n ${N8N_VERSION} and Node 24 into a cache folder.`);
		log('This takes about 5 minutes and 3 GB of disk, once; later starts take seconds.');
	}
	ensureN8n();
	ensureBuilt(log);
	fs.mkdirSync(USER_FOLDER, { recursive: true });
	installPackage(USER_FOLDER);

	const sandbox = await startSandboxProcess(
		Number(process.env.FLIPLET_SANDBOX_PORT || SANDBOX_PORT),
	);
	const instance = createInstance({
		userFolder: USER_FOLDER,
		port: EDITOR_PORT,
		extraEnv: ownerSettings(),
	});
	let server;
	let stopping = false;
	const stopAll = async (code = 0) => {
		stopping = true;
		sandbox.child.kill('SIGTERM');
		if (server) await stopServer(server);
		process.exit(code);
	};
	process.on('SIGINT', () => stopAll());
	process.on('SIGTERM', () => stopAll());
	try {
		await startEditor(instance, sandbox, (child) => {
			server = child;
			child.on('exit', (exitCode) => {
				if (stopping) return;
				log(`n8n stopped (exit code ${exitCode}); see ${path.join(USER_FOLDER, 'n8n.log')}`);
				stopAll(exitCode ?? 1);
			});
		});
	} catch (error) {
		process.stderr.write(`npm start failed: ${error.message}\n`);
		await stopAll(1);
	}
}

async function startEditor(instance, sandbox, onServer) {
	log('Preparing n8n: credential and example workflows…');
	await importSandboxCredential(instance, sandbox.url);
	const examples = await importExamplesOnce(instance);

	const logFile = path.join(USER_FOLDER, 'n8n.log');
	const logStream = fs.createWriteStream(logFile, { flags: 'a' });
	const server = instance.startServer();
	onServer(server);
	server.stdout.pipe(logStream);
	server.stderr.pipe(logStream);
	const editorUrl = `http://localhost:${EDITOR_PORT}`;
	log(`Starting n8n (log: ${path.relative(REPO, logFile)})…`);
	await waitUntilReady(`http://127.0.0.1:${EDITOR_PORT}`, server);
	const rest = await login(`http://127.0.0.1:${EDITOR_PORT}`, OWNER);
	const nodeNames = (await rest.request('GET', '/types/nodes.json'))
		.filter((node) => node.name.startsWith('n8n-nodes-fliplet.') && !node.name.endsWith('Tool'))
		.map((node) => node.displayName);
	if (!nodeNames.length) throw new Error(`n8n did not load the package; see ${logFile}`);

	log();
	log(`  n8n editor     ${editorUrl}`);
	log(`  log in as      ${OWNER.email} / ${OWNER.password}`);
	log(`  nodes          ${nodeNames.join(', ')} (search "Fliplet" in the nodes panel)`);
	log(`  credential     "Fliplet Sandbox" → ${sandbox.url} (organization token ${TOKENS.org})`);
	log(`  app token      ${TOKENS.app} (app 11, "Staff Directory")`);
	log(`  sandbox        ${sandbox.url}/__sandbox/requests shows what the nodes sent`);
	if (examples.length) log(`  examples       ${examples.join(', ')} (under Overview)`);
	log();
	log('Press Ctrl+C to stop n8n and the sandbox.');
}

main().catch((error) => {
	process.stderr.write(`npm start failed: ${error.message}\n`);
	process.exit(1);
});
