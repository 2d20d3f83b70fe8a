import { sleep } from 'n8n-workflow';

import { COMPLETIONS, EMBEDDINGS } from '../ai/fixtures';
import { embeddingsRunner } from '../embeddings/runEmbeddings';
import { apiRequests, onSandboxRequest, useSandbox, type Sandbox } from '../harness';
import { agentCalls } from './modelUser.node';
import { modelRunner } from './runModel';

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
const embed = embeddingsRunner(sandbox);
/** Long enough that an answer arriving at all shows the call was not aborted. */
const HELD_MS = 8000;

afterEach(() => agentCalls.clear());

/** Resolves once every AI call the sandbox took is settled: cancelled by its client, or answered. */
async function callsSettled(box: Sandbox, path: RegExp) {
	for (;;) {
		const requests = apiRequests(box, path);
		const calls = box.state.ai.calls as Array<{ cancelled?: boolean }>;
		if (calls.length && calls.every((call, i) => call.cancelled || requests[i]?.status)) {
			return calls;
		}
		await sleep(20);
	}
}

describe('cancelling the Chat Model and the Embeddings (through n8n-core)', () => {
	it.each(['gpt-4o-mini', 'gemini-2.5-flash'])(
		"aborts the %s call in flight when the agent's signal aborts, and sends no further call",
		async (model) => {
			sandbox().injectFault({ mode: 'delay', delayMs: HELD_MS, path: 'ai/completions' });
			onSandboxRequest(sandbox(), (request) => {
				if (COMPLETIONS.test(request.path)) {
					agentCalls.forEach((controller) => controller.abort());
				}
			});
			const result = await runModel('cancel', 'Hello', {
				model: { __rl: true, mode: 'list', value: model },
			});
			expect(result.error).toBeUndefined();
			const { first, second } = result.json[0] as Record<string, { error?: string }>;
			expect(first.error).toBeDefined();
			expect(second.error).toBeDefined();
			expect(await callsSettled(sandbox(), COMPLETIONS)).toEqual([
				expect.objectContaining({ endpoint: 'completions', model, cancelled: true }),
			]);
			expect(apiRequests(sandbox(), COMPLETIONS)).toHaveLength(1);
		},
	);

	it('aborts the embeddings batch in flight when the execution is stopped, and sends no further batch', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: HELD_MS, path: 'ai/embeddings' });
		let stop = () => {};
		onSandboxRequest(sandbox(), (request) => {
			if (EMBEDDINGS.test(request.path)) stop();
		});
		const result = await embed(['a', 'b', 'c'], 'q', { batchSize: 1 }, undefined, {
			whileRunning: (stopRun) => {
				stop = stopRun;
			},
		});
		expect(result.error?.message).toBe('The embeddings call was cancelled');
		expect(await callsSettled(sandbox(), EMBEDDINGS)).toEqual([
			expect.objectContaining({ endpoint: 'embeddings', cancelled: true }),
		]);
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(1);
	});
});
