'use strict';
// The editor that `npm start` serves, in pieces the browser tier reuses: the sandbox as its own
// process, the "Fliplet Sandbox" credential, the example workflows, and `n8n start` with the
// package loaded and the owner logged in.

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const { TOKENS } = require('../../sandbox');
const { createInstance, installPackage, REPO } = require('./n8nInstance');
const { OWNER, ownerSettings, waitUntilReady, login } = require('./editorServer');
const { importWorkflows, readWorkflows, runsOnN8n } = require('./imports');
const { N8N_MAJOR } = require('../install-n8n');

const EXAMPLES_DIR = path.join(REPO, 'examples');
const CREDENTIAL = { id: 'flipletSandbox01', name: 'Fliplet Sandbox' };
/** Where a user lands after logging in: the workflows list, with the examples in it. */
const LANDING_PATH = '/home/workflows';

/** The editor's address that logs in and then opens the workflows list (the examples). */
function landingUrl(editorUrl) {
	return `${editorUrl}/signin?redirect=${encodeURIComponent(LANDING_PATH)}`;
}

async function startSandboxProcess(port) {
	const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'sandbox.js')], {
		env: { ...process.env, FLIPLET_SANDBOX_PORT: String(port) },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = `http://127.0.0.1:${port}`;
	// Ready when this child says it listens: an answer on the port could come from another
	// process that already holds it (then this child exits with EADDRINUSE).
	let output = '';
	const listening = await new Promise((resolve) => {
		const timer = setTimeout(() => resolve(false), 10_000);
		child.stdout.on('data', (chunk) => {
			output += chunk;
			if (output.includes(`listening on ${url}`)) {
				clearTimeout(timer);
				resolve(true);
			}
		});
		child.once('exit', () => {
			clearTimeout(timer);
			resolve(false);
		});
	});
	child.stdout.removeAllListeners('data');
	if (listening) {
		child.stdout.resume();
		const cdnUrl = /CDN-like host\): (http:\/\/\S+)/.exec(output)?.[1] ?? '';
		return { child, url, cdnUrl };
	}
	child.kill('SIGTERM');
	throw new Error(
		`The sandbox could not start on port ${port} (is another sandbox or npm start using it?). Stop that process, or choose another port with FLIPLET_SANDBOX_PORT.`,
	);
}

/**
 * The "Fliplet Sandbox" credential, re-imported on each start so it follows the sandbox port (and
 * its CDN-like host, from which Download Files may fetch public files).
 */
async function importSandboxCredential(instance, sandboxUrl, cdnUrl = '') {
	const file = path.join(instance.userFolder, 'credential.import.json');
	const credential = {
		...CREDENTIAL,
		type: 'flipletApi',
		data: { accessToken: TOKENS.org, region: 'custom', baseUrl: sandboxUrl, fileHosts: cdnUrl },
	};
	fs.writeFileSync(file, JSON.stringify([credential]));
	await instance.cli(['import:credentials', `--input=${file}`]);
	fs.rmSync(file);
}

function exampleFiles() {
	return fs.existsSync(EXAMPLES_DIR)
		? fs
				.readdirSync(EXAMPLES_DIR)
				.filter((name) => name.endsWith('.json'))
				.sort()
		: [];
}

/** Examples are imported once, so changes made to them in the editor survive restarts. */
async function importExamplesOnce(instance) {
	const marker = path.join(instance.userFolder, '.examples-imported');
	const files = exampleFiles();
	const done = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n') : [];
	// An example this n8n line cannot run (the Chat Model's on 1.x) is not offered.
	const runnable = files.filter((name) =>
		runsOnN8n(readWorkflows([path.join(EXAMPLES_DIR, name)])[0].workflow, N8N_MAJOR),
	);
	const fresh = runnable.filter((name) => !done.includes(name));
	if (fresh.length) {
		const paths = fresh.map((name) => path.join(EXAMPLES_DIR, name));
		await importWorkflows(instance, readWorkflows(paths));
		fs.writeFileSync(marker, [...done, ...fresh].filter(Boolean).join('\n'));
	}
	return runnable;
}

/**
 * Prepares a user folder (package, credential, examples) and starts `n8n start` in it. Calls
 * `onServer` with the n8n process as soon as it runs (so a caller can stop it on Ctrl+C).
 * @param {{ userFolder: string, port: number, sandboxUrl: string, cdnUrl?: string,
 *   log: (line: string) => void,
 *   onServer?: (child: import('child_process').ChildProcess) => void,
 *   extraEnv?: Record<string, string> }} options
 */
async function startEditor({ userFolder, port, sandboxUrl, cdnUrl, log, onServer, extraEnv = {} }) {
	fs.mkdirSync(userFolder, { recursive: true });
	installPackage(userFolder);
	const instance = createInstance({
		userFolder,
		port,
		extraEnv: { ...ownerSettings(), ...extraEnv },
	});
	log('Preparing n8n: credential and example workflows…');
	await importSandboxCredential(instance, sandboxUrl, cdnUrl);
	const examples = await importExamplesOnce(instance);

	const logFile = path.join(userFolder, 'n8n.log');
	const logStream = fs.createWriteStream(logFile, { flags: 'a' });
	const server = instance.startServer();
	onServer?.(server);
	server.stdout.pipe(logStream);
	server.stderr.pipe(logStream);
	const shownLog = logFile.startsWith(REPO + path.sep) ? path.relative(REPO, logFile) : logFile;
	log(`Starting n8n (log: ${shownLog})…`);
	const apiUrl = `http://127.0.0.1:${port}`;
	await waitUntilReady(apiUrl, server);
	const rest = await login(apiUrl, OWNER);
	const nodeNames = (await rest.request('GET', '/types/nodes.json'))
		.filter((node) => node.name.startsWith('n8n-nodes-fliplet.') && !node.name.endsWith('Tool'))
		.map((node) => node.displayName);
	if (!nodeNames.length) throw new Error(`n8n did not load the package; see ${logFile}`);
	return { server, rest, examples, nodeNames, logFile, editorUrl: `http://localhost:${port}` };
}

module.exports = {
	CREDENTIAL,
	LANDING_PATH,
	OWNER,
	landingUrl,
	exampleFiles,
	importSandboxCredential,
	startSandboxProcess,
	startEditor,
};
