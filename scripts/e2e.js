#!/usr/bin/env node
'use strict';
// End-to-end tier: the built package in a real n8n (installed once into a cache folder, see
// install-n8n.js), credentials pointing at sandboxes in this process (one per workflow), every
// workflow of test/e2e/workflows and examples/ run in one `n8n execute-batch` (the first one also
// alone with `n8n execute --id`), and test/e2e/checks.js asserting on each run's output and on what its sandbox received and stored.
//
//   npm run build && npm run test:e2e
//   npm run test:e2e -- app errors     only the workflows whose file name contains a word

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { createSandbox, TOKENS } = require('../sandbox');
const { ensureN8n, isInstalled, N8N_MAJOR, N8N_VERSION } = require('./install-n8n');
const { createInstance, freePort, installPackage, REPO } = require('./lib/n8nInstance');
const { ownerSettings } = require('./lib/editorServer');
const { ensureBuilt } = require('./lib/build');
const {
	credentialFixtures,
	importCredentials,
	importWorkflows,
	isolateCredentials,
	prepareForTier,
	readWorkflows,
	runsOnN8n,
	startsFromFlipletTrigger,
	workflowFiles,
} = require('./lib/imports');
const { shapeRun } = require('./lib/workflowRun');
const { serverChecks } = require('./lib/serverChecks');

const { checks } = require(path.join(REPO, 'test', 'e2e', 'checks.js'));
const { instantTriggerCheck } = require(path.join(REPO, 'test', 'e2e', 'instantTrigger.js'));
const { agentStreamCheck } = require(path.join(REPO, 'test', 'e2e', 'agentStream.js'));

function log(message) {
	process.stdout.write(`${message}\n`);
}

async function main() {
	const started = Date.now();
	if (!isInstalled()) log('First run: installing n8n into the cache (about 5 minutes)…');
	ensureN8n();
	const installedAt = Date.now();
	ensureBuilt(log);

	const filters = process.argv.slice(2);
	const selected = (key) => !filters.length || filters.some((word) => key.includes(word));
	const chosen = readWorkflows(workflowFiles().filter((file) => selected(path.basename(file))));
	const workflows = chosen.filter((entry) => runsOnN8n(entry.workflow, N8N_MAJOR));
	for (const entry of chosen.filter((entry) => !workflows.includes(entry))) {
		log(`  - ${entry.key}: left out on n8n ${N8N_VERSION} (the Fliplet Chat Model needs n8n 2.x)`);
	}
	for (const entry of workflows) prepareForTier(entry.workflow);
	const activated = workflows.filter((entry) => startsFromFlipletTrigger(entry.workflow));
	const batch = workflows.filter((entry) => !activated.includes(entry));
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'fliplet-e2e-'));
	const instance = createInstance({
		userFolder,
		encryptionKey: crypto.randomBytes(24).toString('hex'),
		port: await freePort(),
		brokerPort: await freePort(),
		extraEnv: ownerSettings(),
	});
	// One sandbox per workflow (and one for the editor checks): runs stay isolated in one n8n process.
	const sandboxes = new Map();
	for (const entry of [...workflows, { key: 'server' }]) {
		const sandbox = createSandbox({ rateLimits: true });
		await sandbox.start(0, '127.0.0.1');
		checks[entry.key]?.setup?.(sandbox);
		sandboxes.set(entry.key, sandbox);
	}
	const failures = [];
	const fail = (key, error) => {
		failures.push(key);
		log(`  ✗ ${key}\n${indent(error.stack ?? String(error))}`);
	};
	try {
		installPackage(userFolder);
		const serverSandbox = sandboxes.get('server');
		await importCredentials(instance, [
			...credentialFixtures(serverSandbox.url, TOKENS, serverSandbox.cdnUrl),
			...isolateCredentials(
				workflows,
				(entry) => sandboxes.get(entry.key).url,
				TOKENS,
				(entry) => sandboxes.get(entry.key).cdnUrl,
			),
		]);
		await importWorkflows(instance, workflows);
		log(`n8n ready in ${userFolder}; running ${batch.length} workflows in one n8n process`);

		const batchStarted = Date.now();
		const results = batch.length ? await runBatch(instance, batch) : new Map();
		log(`  (n8n execute-batch: ${Date.now() - batchStarted} ms)`);
		for (const workflow of batch) {
			await checkBatchRun(workflow, results.get(workflow.id), sandboxes.get(workflow.key)).then(
				() => log(`  ✓ ${workflow.key}: ${workflow.name}`),
				(error) => fail(workflow.key, error),
			);
		}
		if (batch.length) {
			await checkSingleExecute(instance, batch[0], sandboxes.get(batch[0].key), fail);
		}
		if (selected('server') || activated.length) {
			await runServerPhase(instance, activated, sandboxes, fail);
		}
	} finally {
		for (const sandbox of sandboxes.values()) await sandbox.stop();
		if (!failures.length && !process.env.FLIPLET_E2E_KEEP) {
			fs.rmSync(userFolder, { recursive: true, force: true });
		}
	}
	const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
	log(
		`End-to-end tier: ${failures.length ? `${failures.length} failed (${failures.join(', ')})` : 'all passed'}` +
			` in ${seconds(Date.now() - installedAt)}` +
			(installedAt - started > 2000
				? ` (plus ${seconds(installedAt - started)} installing n8n)`
				: ''),
	);
	if (failures.length) {
		log(`n8n user folder kept for inspection: ${userFolder}`);
		process.exitCode = 1;
	}
}

async function checkBatchRun(workflow, result, sandbox) {
	const check = checkOf(workflow);
	const requests = sandbox.requests.slice();
	// n8n saves no run data of a failed run, only its error message.
	const run = result.data
		? shapeRun(result.data, requests)
		: { status: 'error', error: result.error, nodes: {} };
	await check({ run, requests, state: sandbox.state, tokens: TOKENS });
}

/**
 * The single-workflow path of n8n's CLI too: `n8n execute --id --rawOutput` re-runs the first
 * workflow of the batch against its reset sandbox, and the same check must pass on what it prints
 * (n8n prints the run data at log level info, after its start-up lines).
 */
async function checkSingleExecute(instance, workflow, sandbox, fail) {
	sandbox.reset();
	// The reset fixture gets the workflow's own set-up again, as before the batch.
	checks[workflow.key]?.setup?.(sandbox);
	const { status, stdout, stderr } = await instance.cli(
		['execute', `--id=${workflow.id}`, '--rawOutput'],
		{ allowFailure: true, extraEnv: { N8N_LOG_LEVEL: 'info' } },
	);
	const key = `${workflow.key} (n8n execute --id)`;
	const jsonStart = stdout.search(/^\{/m);
	if (status !== 0 || jsonStart === -1) {
		fail(
			key,
			new Error(
				`n8n execute exited with ${status}:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`,
			),
		);
		return;
	}
	await checkBatchRun(workflow, { data: JSON.parse(stdout.slice(jsonStart)) }, sandbox).then(
		() => log(`  ✓ ${key}`),
		(error) => fail(key, error),
	);
}

/**
 * The editor server: node listing and credential test, then the Fliplet Trigger workflows, which
 * are published first so the server activates them when it starts.
 */
async function runServerPhase(instance, activated, sandboxes, fail) {
	for (const { id } of activated) await instance.publishWorkflow(id);
	const serverSandbox = sandboxes.get('server');
	const started = Date.now();
	try {
		await serverChecks(
			instance,
			{ sandboxUrl: serverSandbox.url, tokens: TOKENS, requests: () => serverSandbox.requests },
			async (rest) => {
				log(`  ✓ editor: Fliplet nodes listed, credential test OK and refused`);
				for (const workflow of activated) {
					await checkActivated(rest, workflow, sandboxes.get(workflow.key)).then(
						() => log(`  ✓ ${workflow.key} (activated): ${workflow.name}`),
						(error) => fail(workflow.key, error),
					);
				}
				await instantTriggerCheck(rest, log).catch((error) => fail('instant trigger', error));
				// The Chat Model needs n8n 2.x.
				if (N8N_MAJOR >= 2) {
					const baseUrl = `http://127.0.0.1:${instance.env.N8N_PORT}`;
					await agentStreamCheck(rest, baseUrl, log).catch((error) =>
						fail('streaming agent', error),
					);
				}
			},
		);
		log(`  (editor server phase: ${Date.now() - started} ms)`);
	} catch (error) {
		fail('server', error);
	}
}

/** A workflow's check: a function, or `{ setup(sandbox), check }`. */
function checkOf(workflow) {
	const entry = checks[workflow.key];
	const check = typeof entry === 'function' ? entry : entry?.check;
	if (!check) throw new Error(`no check in test/e2e/checks.js for ${workflow.key}`);
	return check;
}

/**
 * A workflow the server activated: its check is retried until it passes (the activation poll and
 * the executions it starts run in the background) or 90 s pass.
 */
async function checkActivated(rest, workflow, sandbox) {
	const check = checkOf(workflow);
	const filter = encodeURIComponent(JSON.stringify({ workflowId: workflow.id }));
	const deadline = Date.now() + 90_000;
	for (;;) {
		const listed = await rest.request('GET', `/rest/executions?filter=${filter}`);
		const executions = listed.data?.results ?? listed.data ?? [];
		try {
			const requests = sandbox.requests.slice();
			await check({
				run: { executions, nodes: {} },
				requests,
				state: sandbox.state,
				tokens: TOKENS,
			});
			return;
		} catch (error) {
			if (Date.now() > deadline) throw error;
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/**
 * Runs the workflows with `n8n execute-batch` (one n8n start-up for all). Returns, by workflow
 * id, the run data (from its snapshot file) or the error n8n reported.
 */
async function runBatch(instance, workflows) {
	const snapshots = path.join(instance.userFolder, 'snapshots');
	const summaryFile = path.join(instance.userFolder, 'batch-summary.json');
	fs.mkdirSync(snapshots, { recursive: true });
	const { stdout, stderr } = await instance.cli(
		[
			'execute-batch',
			`--ids=${workflows.map((workflow) => workflow.id).join(',')}`,
			`--snapshot=${snapshots}`,
			`--output=${summaryFile}`,
			'--concurrency=1',
			// n8n re-runs failed workflows once by default: a run must count once.
			'--retries=0',
		],
		{ allowFailure: true },
	);
	if (!fs.existsSync(summaryFile)) {
		throw new Error(`n8n execute-batch wrote no summary:\n${stdout}\n${stderr}`);
	}
	const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
	const errors = [...(summary.summary?.errors ?? []), ...(summary.summary?.warnings ?? [])];
	const results = new Map();
	for (const { id } of workflows) {
		const snapshot = path.join(snapshots, `${id}-snapshot.json`);
		const reported = errors.find((entry) => entry.workflowId === id);
		results.set(id, {
			data: fs.existsSync(snapshot) ? JSON.parse(fs.readFileSync(snapshot, 'utf8')) : undefined,
			error:
				reported?.error ??
				`no result (n8n output:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)})`,
		});
	}
	return results;
}

function indent(text) {
	return text
		.split('\n')
		.map((line) => `      ${line}`)
		.join('\n');
}

main().catch((error) => {
	process.stderr.write(`${error.stack ?? error}\n`);
	process.exit(1);
});
