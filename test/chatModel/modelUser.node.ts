/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * A test root node that uses the connected chat model the way n8n's AI nodes do (invoke, bound
 * tools, stream), without importing LangChain: message-like tuples and plain tool objects.
 */
interface LcMessage {
	content: unknown;
	tool_calls?: Array<{ id?: string; name: string; args: IDataObject }>;
	tool_call_chunks?: unknown[];
	usage_metadata?: IDataObject;
	concat(chunk: LcMessage): LcMessage;
}
interface LcModel {
	invoke(input: unknown, options?: { signal?: AbortSignal }): Promise<LcMessage>;
	stream(input: unknown): Promise<AsyncIterable<LcMessage>>;
	bindTools(tools: unknown[]): LcModel;
}

/**
 * The signals of the calls made with `use: 'cancel'`, as an agent passes its own to its model (a
 * chat that closes aborts it): a test aborts them when the call it waits for has arrived.
 */
export const agentCalls = new Set<AbortController>();

export const IMAGE_URL = 'data:image/png;base64,iVBORw0KGgo=';

export const STAFF_TOOL = {
	type: 'function',
	function: {
		name: 'Staff_Directory',
		description: 'Reads the staff entries',
		parameters: {
			type: 'object',
			properties: { limit: { type: 'number' } },
		},
	},
};

/**
 * Tools as n8n's own tools come to a model: Zod schemas, which n8n's SDK turns into JSON schemas
 * with `additionalProperties: false`, `$schema` and `["string", "null"]` types.
 */
const { z } = require('zod');
export const ZOD_TOOLS = [
	{
		name: 'Staff_Directory',
		description: 'Reads the staff entries',
		schema: z.object({
			limit: z.number().optional().describe('How many entries'),
			department: z.string().nullable(),
		}),
	},
	{ name: 'Current_Time', description: 'Tells the time', schema: z.object({}) },
];

export const TOOL_RESULT = '[{"Name":"Alice Martin","Department":"Sales"}]';

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	return (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
}

export class ModelUser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model User',
		name: 'modelUser',
		group: ['transform'],
		version: 1,
		description: 'Uses a chat model',
		defaults: { name: 'Model User' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiLanguageModel, required: true, maxConnections: 1 },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Use', name: 'use', type: 'string', default: 'invoke' },
			{ displayName: 'Prompt', name: 'prompt', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const model = (await this.getInputConnectionData(
			NodeConnectionTypes.AiLanguageModel,
			0,
		)) as LcModel;
		const use = this.getNodeParameter('use', 0) as string;
		const prompt = this.getNodeParameter('prompt', 0) as string;
		const conversation = [
			['system', 'Answer from the staff data.'],
			['user', prompt],
		];
		let json: IDataObject;
		if (use === 'tools' || use === 'zodTools') {
			const bound = model.bindTools(use === 'tools' ? [STAFF_TOOL] : ZOD_TOOLS);
			const first = await bound.invoke(conversation);
			const call = first.tool_calls?.[0];
			// n8n's own agent (2.x) keeps only each call's id, name and arguments between its steps,
			// and adds the id to the arguments.
			const kept =
				use === 'zodTools'
					? {
							role: 'assistant',
							content: '',
							tool_calls: (first.tool_calls ?? []).map((toolCall) => ({
								...toolCall,
								args: { ...toolCall.args, id: toolCall.id },
							})),
						}
					: first;
			const second = await bound.invoke([
				...conversation,
				kept,
				{ role: 'tool', content: TOOL_RESULT, tool_call_id: call?.id ?? '' },
			]);
			json = { calls: first.tool_calls ?? [], answer: text(second.content) };
		} else if (use === 'stream' || use === 'streamTools') {
			const streaming = use === 'stream' ? model : model.bindTools([STAFF_TOOL]);
			const chunks: IDataObject[] = [];
			let whole: LcMessage | undefined;
			for await (const chunk of await streaming.stream(conversation)) {
				chunks.push({
					text: text(chunk.content),
					toolCallChunks: (chunk.tool_call_chunks ?? []) as IDataObject[],
				});
				whole = whole ? whole.concat(chunk) : chunk;
			}
			// The calls of the whole streamed message, as LangChain joins its chunks.
			json = { chunks, calls: whole?.tool_calls ?? [] };
		} else if (use === 'cancel') {
			const controller = new AbortController();
			agentCalls.add(controller);
			const outcome = async () =>
				await model.invoke(conversation, { signal: controller.signal }).then(
					(answer) => ({ answer: text(answer.content) }),
					(error: Error) => ({ error: error.message }),
				);
			// A second call after the cancel, as an agent loop that goes on would make.
			json = { first: await outcome(), second: await outcome() };
		} else if (use === 'image') {
			const answer = await model.invoke([
				conversation[0],
				[
					'user',
					[
						{ type: 'text', text: prompt },
						{ type: 'image_url', image_url: { url: IMAGE_URL, detail: 'low' } },
					],
				],
			]);
			json = { answer: text(answer.content) };
		} else {
			const answer = await model.invoke(conversation);
			json = { answer: text(answer.content), usage: answer.usage_metadata ?? null };
		}
		return [[{ json }]];
	}
}
