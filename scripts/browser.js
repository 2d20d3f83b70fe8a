#!/usr/bin/env node
'use strict';
// Browser tier: the editor that `npm start` serves (same user-folder set-up, credential and
// examples, in a fresh temporary user folder on free ports), driven by headless Chromium through
// puppeteer-core as a person would use it. Each scenario asserts on what the page shows, saves a
// screenshot of each step and reports its time.
//
//   npm run build && npm run test:browser
//   npm run test:browser -- credential examples    only the scenarios whose name has a word
//   npm run test:browser -- --update-pictures      also keeps the README's pictures (docs/images/)
//   CHROMIUM_PATH=/path/to/chrome npm run test:browser

const fs = require('fs');
const os = require('os');
const path = require('path');

const puppeteer = require('puppeteer-core');

const { ensureN8n, isInstalled } = require('./install-n8n');
const { ensureBuilt } = require('./lib/build');
const { ensureChromium } = require('./lib/chromium');
const { freePort, REPO } = require('./lib/n8nInstance');
const { stopServer } = require('./lib/editorServer');
const { startEditor, startSandboxProcess } = require('./lib/editorSession');
const { wrapPage } = require('./lib/browserPage');
const { readWorkflows } = require('./lib/imports');
const { checkPictures } = require('./lib/readmePictures');

const BROWSER_TESTS = path.join(REPO, 'test', 'browser');
const { scenarios: shared } = require(path.join(BROWSER_TESTS, 'scenarios.js'));
// Scenario files of their own (test/browser/*.scenarios.js) run before the last shared scenario,
// which publishes a trigger that keeps polling.
const own = fs
	.readdirSync(BROWSER_TESTS)
	.filter((file) => file.endsWith('.scenarios.js'))
	.sort()
	.flatMap((file) => require(path.join(BROWSER_TESTS, file)).scenarios);
const scenarios = [...shared.slice(0, -1), ...own, ...shared.slice(-1)];

function log(message = '') {
	process.stdout.write(`${message}\n`);
}

async function main() {
	const started = Date.now();
	const chromium = ensureChromium(log);
	if (!isInstalled()) log('First run: installing n8n into the cache (a few minutes)…');
	ensureN8n();
	ensureBuilt(log);

	const updatePictures = process.argv.includes('--update-pictures');
	const filters = process.argv.slice(2).filter((word) => word !== '--update-pictures');
	// The first scenario logs in; every other one needs its session, so a filter keeps it.
	const selected = scenarios.filter(
		({ name }, index) =>
			index === 0 || !filters.length || filters.some((word) => name.includes(word)),
	);
	const stamp = new Date().toISOString().replace(/[:.]/g, '-');
	const screenshots = path.join(os.tmpdir(), `fliplet-browser-${stamp}`);
	fs.mkdirSync(screenshots, { recursive: true });
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'fliplet-browser-n8n-'));

	const sandbox = await startSandboxProcess(await freePort());
	let server;
	let browser;
	const results = [];
	// Ctrl+C stops the browser, n8n and the sandbox too.
	const interrupt = async () => {
		await browser?.close().catch(() => undefined);
		sandbox.child.kill('SIGTERM');
		if (server) await stopServer(server);
		process.exit(130);
	};
	process.once('SIGINT', interrupt);
	process.once('SIGTERM', interrupt);
	try {
		const editor = await startEditor({
			userFolder,
			port: await freePort(),
			sandboxUrl: sandbox.url,
			cdnUrl: sandbox.cdnUrl,
			log,
			onServer: (child) => (server = child),
			extraEnv: { N8N_RUNNERS_BROKER_PORT: String(await freePort()) },
		});
		log(`n8n ready in ${seconds(Date.now() - started)} s; screenshots go to ${screenshots}`);
		browser = await puppeteer.launch({
			executablePath: chromium,
			headless: true,
			args: ['--no-sandbox', '--disable-dev-shm-usage', '--window-size=1440,900'],
			defaultViewport: { width: 1440, height: 900 },
		});
		const page = await browser.newPage();
		// Leaving a workflow with unsaved changes asks first: a person would leave.
		page.on('dialog', (dialog) => dialog.accept());
		const context = {
			...wrapPage(page, screenshots),
			editorUrl: editor.editorUrl,
			sandboxUrl: sandbox.url,
			cdnUrl: sandbox.cdnUrl,
			rest: editor.rest,
			examples: readWorkflows(editor.examples.map((file) => path.join(REPO, 'examples', file))),
			log,
		};
		for (const scenario of selected) {
			const scenarioStarted = Date.now();
			try {
				await scenario.run(context);
				results.push({ name: scenario.name, ok: true, ms: Date.now() - scenarioStarted });
				log(`  ✓ ${scenario.name} (${seconds(Date.now() - scenarioStarted)} s)`);
			} catch (error) {
				results.push({ name: scenario.name, ok: false, ms: Date.now() - scenarioStarted });
				await context.shot(`failed-${slug(scenario.name)}`).catch(() => undefined);
				log(`  ✗ ${scenario.name} (${seconds(Date.now() - scenarioStarted)} s)`);
				log(indent(error.stack ?? String(error)));
			}
		}
	} finally {
		await browser?.close();
		sandbox.child.kill('SIGTERM');
		if (server) await stopServer(server);
		const failed = results.some((result) => !result.ok);
		if (failed) log(`n8n's log of this run: ${path.join(userFolder, 'n8n.log')}`);
		else fs.rmSync(userFolder, { recursive: true, force: true });
	}
	const passed = results.filter((result) => result.ok).length;
	// A whole run makes every picture the README shows (a filtered one, only some of them).
	if (passed === results.length && (updatePictures || !filters.length)) {
		const problems = checkPictures(path.join(screenshots, 'pictures'), {
			update: updatePictures,
			partial: filters.length > 0,
		});
		for (const problem of problems) log(`  ✗ ${problem}`);
		if (problems.length) process.exitCode = 1;
		else if (updatePictures) log('README pictures copied into docs/images/');
	}
	log();
	log(`Screenshots: ${screenshots}`);
	log(`Browser tier: ${seconds(Date.now() - started)} s in all`);
	log(`${passed} passed, ${results.length - passed} failed`);
	if (passed !== results.length || !results.length) process.exitCode = 1;
}

const seconds = (ms) => (ms / 1000).toFixed(1);
const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const indent = (text) =>
	text
		.split('\n')
		.map((line) => `      ${line}`)
		.join('\n');

main().catch((error) => {
	process.stderr.write(`Browser tier failed: ${error.stack ?? error.message}\n`);
	process.exit(1);
});
