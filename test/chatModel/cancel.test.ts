import { sleep } from 'n8n-workflow';

import { FlipletEmbeddings } from '../../nodes/FlipletEmbeddings/FlipletEmbeddings.node';
import { COMPLETIONS, EMBEDDINGS, PUBLISHED_APP } from '../ai/fixtures';
import { EmbeddingsUser } from '../embeddings/embeddingsUser.node';
import {
	apiRequests,
	onSandboxRequest,
	registerNodeType,
	runNode,
	sandboxCredential,
	useSandbox,
	type Sandbox,
} from '../harness';
import { agentCalls } from './modelUser.node';
import { modelRunner } from './runModel';

registerNodeType('n8n-nodes-fliplet.flipletEmbeddings', () => new FlipletEmbeddings());
registerNodeType('test.embeddingsUser', () => new EmbeddingsUser());

const sandbox = useSandbox();
const runModel = modelRunner(sandbox);
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
	it("aborts the model call in flight when the agent's signal aborts, and sends no further call", async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: HELD_MS, path: 'ai/completions' });
		onSandboxRequest(sandbox(), (request) => {
			if (COMPLETIONS.test(request.path)) {
				agentCalls.forEach((controller) => controller.abort());
			}
		});
		const result = await runModel('cancel', 'Hello');
		expect(result.error).toBeUndefined();
		const { first, second } = result.json[0] as Record<string, { error?: string }>;
		expect(first.error).toBeDefined();
		expect(second.error).toBeDefined();
		expect(await callsSettled(sandbox(), COMPLETIONS)).toEqual([
			expect.objectContaining({ endpoint: 'completions', cancelled: true }),
		]);
		expect(apiRequests(sandbox(), COMPLETIONS)).toHaveLength(1);
	});

	it('aborts the embeddings batch in flight when the execution is stopped, and sends no further batch', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: HELD_MS, path: 'ai/embeddings' });
		let stop = () => {};
		onSandboxRequest(sandbox(), (request) => {
			if (EMBEDDINGS.test(request.path)) stop();
		});
		const result = await runNode({
			nodeType: 'test.embeddingsUser',
			parameters: { documents: JSON.stringify(['a', 'b', 'c']), query: 'q' },
			credentials: sandboxCredential(sandbox()),
			subNodes: [
				{
					name: 'Fliplet Embeddings',
					type: 'n8n-nodes-fliplet.flipletEmbeddings',
					connection: 'ai_embedding',
					parameters: {
						app: PUBLISHED_APP,
						model: 'text-embedding-3-small',
						options: { batchSize: 1 },
					},
				},
			],
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
