/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import * as path from 'path';

import { callSandbox, runNode, TOKENS, useSandbox } from '../harness';

// The real-n8n tier's own tooling (plain JavaScript, run by scripts/e2e.js), tested here without n8n.
const { isolateCredentials, prepareForTier, readWorkflows } = require('../../scripts/lib/imports');
const { shapeRun } = require('../../scripts/lib/workflowRun');
const { checks } = require('./checks');

const sandbox = useSandbox();

interface TierNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string }>;
}

interface TierCredential {
	id: string;
	data: Record<string, string>;
}

/** The resources workflow as the tier imports it: one credential per node. */
function resourcesWorkflow() {
	const [entry] = readWorkflows([path.join(__dirname, 'workflows', 'resources.workflow.json')]);
	prepareForTier(entry.workflow);
	const credentials: TierCredential[] = isolateCredentials([entry], () => sandbox().url, TOKENS);
	return { entry, nodes: entry.workflow.nodes as TierNode[], credentials };
}

describe('Real-n8n tier: which node sent which sandbox request', () => {
	it('matches each request to its node when every node runs within the same millisecond', async () => {
		const { entry, nodes, credentials } = resourcesWorkflow();
		const sameMillisecond = Date.now();
		const runData: Record<string, unknown[]> = {};
		for (const node of nodes) {
			const reference = node.credentials?.flipletApi;
			if (!reference) {
				runData[node.name] = [
					{ startTime: sameMillisecond, executionTime: 0, data: { main: [[{ json: {} }]] } },
				];
				continue;
			}
			const credential = credentials.find((candidate) => candidate.id === reference.id);
			const result = await runNode({
				parameters: node.parameters as never,
				credentials: { flipletApi: credential!.data },
			});
			expect(result.error).toBeUndefined();
			runData[node.name] = [
				{
					startTime: sameMillisecond,
					executionTime: 0,
					data: { main: [result.items.map((item) => ({ json: item.json }))] },
				},
			];
		}
		const requests = sandbox().requests.map((request) => ({ ...request, at: sameMillisecond }));

		const run = shapeRun({ data: { resultData: { runData } }, status: 'success' }, requests);

		expect(run.nodes['Text The Team'].requests.map((request: any) => request.path)).toEqual([
			'/v1/communicate/sms',
		]);
		expect(run.nodes.Announce.requests.map((request: any) => request.path)).toEqual([
			'/v1/apps/11/notifications',
		]);
		// The tier's own check of this workflow, on the same run.
		await checks[entry.key]({ run, requests, state: sandbox().state, tokens: TOKENS });
	});

	it('serves a tagged request as the API path it carries and records the tag', async () => {
		const { credentials } = resourcesWorkflow();
		const baseUrls = new Set(credentials.map((credential) => credential.data.baseUrl));
		expect(baseUrls.size).toBe(credentials.length);
		const [baseUrl] = baseUrls;
		expect(baseUrl).toMatch(/\/__tag\/[\w-]+$/);

		const response = await callSandbox({ url: baseUrl }, 'GET', '/v1/apps', undefined, TOKENS.org);

		expect(response.status).toBe(200);
		const [request] = sandbox().requests;
		expect(request.path).toBe('/v1/apps');
		expect((request as { tag?: string }).tag).toBe(baseUrl.split('/').pop());
	});

	it('leaves a request without a tag to no node rather than guessing by time', () => {
		const at = Date.now();
		const runData = {
			Earlier: [{ startTime: at, executionTime: 0, data: { main: [[]] } }],
			Later: [{ startTime: at, executionTime: 0, data: { main: [[]] } }],
		};
		const run = shapeRun({ data: { resultData: { runData } } }, [
			{ method: 'GET', path: '/v1/apps', at },
		]);
		expect(run.nodes.Earlier.requests).toEqual([]);
		expect(run.nodes.Later.requests).toEqual([]);
	});
});
