'use strict';
// Credentials and workflows into an n8n instance through its CLI (one process per kind).

const fs = require('fs');
const path = require('path');

const { REPO } = require('./n8nInstance');
const { nodeTag } = require('./workflowRun');

const E2E_DIR = path.join(REPO, 'test', 'e2e');
const EXAMPLES_DIR = path.join(REPO, 'examples');

/** Every workflow of the tier: test/e2e/workflows/*.workflow.json, then examples/*.json. */
function workflowFiles() {
	const list = (dir, suffix) =>
		fs.existsSync(dir)
			? fs
					.readdirSync(dir)
					.filter((name) => name.endsWith(suffix))
					.sort()
					.map((name) => path.join(dir, name))
			: [];
	return [
		...list(path.join(E2E_DIR, 'workflows'), '.workflow.json'),
		...list(EXAMPLES_DIR, '.json'),
	];
}

/**
 * The credential fixtures of test/e2e/credentials.json, pointing at a sandbox (and its CDN-like
 * host of public files, when given).
 */
function credentialFixtures(sandboxUrl, tokens, cdnUrl = '') {
	const template = fs.readFileSync(path.join(E2E_DIR, 'credentials.json'), 'utf8');
	return JSON.parse(
		template
			.replaceAll('{{SANDBOX_URL}}', sandboxUrl)
			.replaceAll('{{SANDBOX_CDN_URL}}', cdnUrl)
			.replaceAll('{{ORG_TOKEN}}', tokens.org)
			.replaceAll('{{APP_TOKEN}}', tokens.app),
	);
}

/** n8n's import encrypts plain `data` objects with the instance's key. */
async function importCredentials(instance, credentials) {
	const file = path.join(instance.userFolder, 'credentials.import.json');
	fs.writeFileSync(file, JSON.stringify(credentials));
	await instance.cli(['import:credentials', `--input=${file}`]);
	fs.rmSync(file);
}

/**
 * Gives each node of each workflow its own copy of the credential fixture it uses, pointing at its
 * workflow's sandbox (workflows run in one n8n process stay isolated) under a path the sandbox
 * records as the node's tag (so each request is matched to the node that sent it, see
 * workflowRun.js). Returns the credentials to import.
 */
function isolateCredentials(workflows, sandboxUrlOf, tokens, cdnUrlOf = () => '') {
	const credentials = [];
	workflows.forEach((entry, workflowIndex) => {
		entry.workflow.nodes.forEach((node, nodeIndex) => {
			const fixtures = credentialFixtures(
				`${sandboxUrlOf(entry)}/__tag/${nodeTag(node.name)}`,
				tokens,
				cdnUrlOf(entry),
			);
			const suffix = `-w${workflowIndex}n${nodeIndex}`;
			for (const reference of Object.values(node.credentials ?? {})) {
				const fixture = fixtures.find((credential) => credential.id === reference.id);
				if (!fixture) {
					throw new Error(
						`${entry.key}: node "${node.name}" uses the credential "${reference.id}", which test/e2e/credentials.json does not define`,
					);
				}
				credentials.push({
					...fixture,
					id: fixture.id + suffix,
					name: `${fixture.name} ${suffix}`,
				});
				reference.id += suffix;
				reference.name = `${fixture.name} ${suffix}`;
			}
		});
	});
	return credentials;
}

const CHAT_MODEL = 'n8n-nodes-fliplet.flipletChatModel';

/**
 * Whether the workflow runs on this n8n line: the Fliplet Chat Model needs n8n 2.x (its AI node
 * SDK), so workflows using it are left out on 1.x.
 */
function runsOnN8n(workflow, n8nMajor) {
	return n8nMajor >= 2 || !workflow.nodes.some((node) => node.type === CHAT_MODEL);
}

const TRIGGER = 'n8n-nodes-fliplet.flipletTrigger';
const SCHEDULE = 'n8n-nodes-base.scheduleTrigger';

/** Whether the workflow starts from the Fliplet Trigger (it runs when activated, not by the CLI). */
function startsFromFlipletTrigger(workflow) {
	return workflow.nodes.some((node) => node.type === TRIGGER);
}

/**
 * The tier's copy of a workflow: a Schedule Trigger becomes a Manual Trigger of the same name (the
 * CLI starts workflows from one), and a Fliplet Trigger without "Start From" gets a date before the
 * fixture's entries, so the poll made on activation delivers them.
 */
function prepareForTier(workflow) {
	for (const node of workflow.nodes) {
		if (node.type === SCHEDULE) {
			Object.assign(node, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
		}
		if (node.type === TRIGGER && !node.parameters.startFrom) {
			node.parameters.startFrom = '2026-01-01T00:00:00.000Z';
		}
	}
	return workflow;
}

function readWorkflows(files) {
	return files.map((file) => {
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8'));
		if (!workflow.id) throw new Error(`${file} needs an "id" to be imported`);
		return { key: path.basename(file), id: workflow.id, name: workflow.name, workflow };
	});
}

/** Imports workflows ({ id, workflow }) in one CLI run. */
async function importWorkflows(instance, workflows) {
	const dir = path.join(instance.userFolder, 'workflows.import');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	for (const { id, workflow } of workflows) {
		fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(workflow));
	}
	if (workflows.length) await instance.cli(['import:workflow', '--separate', `--input=${dir}`]);
	fs.rmSync(dir, { recursive: true, force: true });
	return workflows;
}

module.exports = {
	workflowFiles,
	runsOnN8n,
	startsFromFlipletTrigger,
	prepareForTier,
	readWorkflows,
	credentialFixtures,
	isolateCredentials,
	importCredentials,
	importWorkflows,
};
