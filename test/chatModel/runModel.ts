import type { INodeParameters } from 'n8n-workflow';

import { FlipletChatModel } from '../../nodes/FlipletChatModel/FlipletChatModel.node';
import { PUBLISHED_APP } from '../ai/fixtures';
import {
	registerNodeType,
	runNode,
	sandboxCredential,
	type RunOptions,
	type Sandbox,
} from '../harness';
import { ModelUser } from './modelUser.node';

registerNodeType('n8n-nodes-fliplet.flipletChatModel', () => new FlipletChatModel());
registerNodeType('test.modelUser', () => new ModelUser());

export const CHAT_MODEL_NODE = 'Fliplet Chat Model';

/**
 * A runner of the test root node that uses the Fliplet Chat Model (`use`: how it calls it) through
 * n8n-core, the model's parameters over the defaults (published app, gpt-4o-mini, no options).
 */
export function modelRunner(sandbox: () => Sandbox) {
	return (
		use: string,
		prompt: string,
		model: INodeParameters = {},
		run: Pick<RunOptions, 'whileRunning'> = {},
	) =>
		runNode({
			nodeType: 'test.modelUser',
			parameters: { use, prompt },
			credentials: sandboxCredential(sandbox()),
			subNodes: [
				{
					name: CHAT_MODEL_NODE,
					type: 'n8n-nodes-fliplet.flipletChatModel',
					connection: 'ai_languageModel',
					parameters: {
						app: PUBLISHED_APP,
						model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' },
						options: {},
						...model,
					},
				},
			],
			...run,
		});
}

/** What n8n's tracer wrote in the Chat Model's run data for each call. */
export function tracedUsage(result: Awaited<ReturnType<typeof runNode>>) {
	return (result.run.data.resultData.runData[CHAT_MODEL_NODE] ?? []).map((run) => {
		const json = run.data?.ai_languageModel?.[0]?.[0]?.json ?? {};
		return { tokenUsage: json.tokenUsage, estimated: 'tokenUsageEstimate' in json };
	});
}

/** The test node's output for the prompt "Hello there": the sandbox's echo and its token count. */
export const HELLO_THERE_ANSWER = {
	answer: 'Echo: Hello there',
	usage: expect.objectContaining({ input_tokens: 2, output_tokens: 3, total_tokens: 5 }),
};
