#!/usr/bin/env node
'use strict';
// `npm start`: a real n8n editor on http://localhost:5678 with this package installed, the API
// sandbox running as its own process, a ready "Fliplet Sandbox" credential and the example
// workflows. The first run installs n8n into a cache folder (minutes); later runs start in seconds.
//
//   N8N_PORT=5679 npm start             another editor port
//   FLIPLET_SANDBOX_PORT=5690 npm start another sandbox port

const path = require('path');

const { TOKENS } = require('../sandbox');
const { isInstalled, ensureN8n, N8N_VERSION } = require('./install-n8n');
const { ensureBuilt } = require('./lib/build');
const { REPO } = require('./lib/n8nInstance');
const { stopServer } = require('./lib/editorServer');
const { OWNER, landingUrl, startEditor, startSandboxProcess } = require('./lib/editorSession');
const { DEFAULT_PORT: SANDBOX_PORT } = require('./sandbox');

const EDITOR_PORT = Number(process.env.N8N_PORT || 5678);
const USER_FOLDER = path.join(REPO, '.cache', 'n8n-editor');

function log(message = '') {
	process.stdout.write(`${message}\n`);
}

async function main() {
	const started = Date.now();
	if (!isInstalled()) {
		log(`First run: installing n8n ${N8N_VERSION} and Node 24 into a cache folder.`);
		log('This takes a few minutes and 3 GB of disk, once; later starts take seconds.');
	}
	ensureN8n();
	ensureBuilt(log);

	const sandbox = await startSandboxProcess(
		Number(process.env.FLIPLET_SANDBOX_PORT || SANDBOX_PORT),
	);
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
		const editor = await startEditor({
			userFolder: USER_FOLDER,
			port: EDITOR_PORT,
			sandboxUrl: sandbox.url,
			cdnUrl: sandbox.cdnUrl,
			log,
			onServer: (child) => {
				server = child;
				child.on('exit', (exitCode) => {
					if (stopping) return;
					log(`n8n stopped (exit code ${exitCode}); see ${path.join(USER_FOLDER, 'n8n.log')}`);
					stopAll(exitCode ?? 1);
				});
			},
		});
		printSummary(editor, sandbox, Date.now() - started);
	} catch (error) {
		process.stderr.write(`npm start failed: ${error.message}\n`);
		await stopAll(1);
	}
}

function printSummary(editor, sandbox, elapsedMs) {
	log();
	log(`  n8n editor     ${landingUrl(editor.editorUrl)}`);
	log(`  log in as      ${OWNER.email} / ${OWNER.password}`);
	if (editor.examples.length) {
		log(`  examples       the workflows list after login (${editor.editorUrl}/home/workflows):`);
		for (const file of editor.examples) log(`                   examples/${file}`);
	}
	log(`  nodes          ${editor.nodeNames.join(', ')} (search "Fliplet" in the nodes panel)`);
	log(`  credential     "Fliplet Sandbox" → ${sandbox.url} (organization token ${TOKENS.org})`);
	log(`  app token      ${TOKENS.app} (app 11, "Staff Directory")`);
	log(`  sandbox        ${sandbox.url}/__sandbox/requests shows what the nodes sent`);
	log();
	log(`Ready in ${Math.round(elapsedMs / 1000)} s. Press Ctrl+C to stop n8n and the sandbox.`);
}

main().catch((error) => {
	process.stderr.write(`npm start failed: ${error.message}\n`);
	process.exit(1);
});
