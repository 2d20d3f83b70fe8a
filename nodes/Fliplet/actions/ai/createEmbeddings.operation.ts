import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { assertTakesDimensions, vectorsFrom, type Vector } from '../../helpers/aiEmbeddings';
import { AI_REQUEST_ONCE, aiRequest } from '../../helpers/aiRequest';
import { getAppId } from '../../helpers/locators';
import { sendInBatches } from '../../helpers/batchSend';
import { mapItemsOnce } from '../../helpers/mapItems';
import type { SendOncePlan } from '../../helpers/sendLedger';
import { aiAppLocator, dimensionsOption, modelField } from './ai.descriptions';

const properties: INodeProperties[] = [
	aiAppLocator,
	modelField(
		'text-embedding-3-small',
		['text-embedding-3-small', 'text-embedding-3-large'],
		'embedding',
	),
	{
		displayName: 'Input From',
		name: 'inputSource',
		type: 'options',
		noDataExpression: true,
		default: 'text',
		options: [
			{
				name: 'Text',
				value: 'text',
				description: 'A text or a list of texts (e.g. from an expression), one request per item',
			},
			{
				name: 'Field of Each Item',
				value: 'field',
				description: 'One text per item, sent in batches: one request for many items',
			},
		],
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 2 },
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.description }}',
		description: 'The text to embed. An expression giving a list of texts embeds each of them.',
		displayOptions: { show: { inputSource: ['text'] } },
	},
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		required: true,
		default: 'text',
		placeholder: 'e.g. description',
		description: 'The item field holding the text (dots reach nested fields, e.g. report.summary)',
		displayOptions: { show: { inputSource: ['field'] } },
	},
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 2048 },
		default: 100,
		description:
			'How many items share one request (each request counts against the AI rate limit of 10 per minute)',
		displayOptions: { show: { inputSource: ['field'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			dimensionsOption,
			{
				displayName: 'Encoding',
				name: 'encoding',
				type: 'options',
				default: 'float',
				options: [
					{ name: 'Float', value: 'float', description: 'A list of numbers' },
					{
						name: 'Base64',
						value: 'base64',
						description: 'The vector as a base64 string (smaller)',
					},
				],
			},
			{
				displayName: 'Output Field',
				name: 'outputField',
				type: 'string',
				default: 'embedding',
				description: 'The output field that holds the vector',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ai'], operation: ['createEmbeddings'] } },
	properties,
);

interface EmbeddingOptions {
	dimensions?: number;
	encoding?: 'float' | 'base64';
	outputField?: string;
}

function readPath(json: IDataObject, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			json,
		);
}

function invalidText(this: IExecuteFunctions, what: string, itemIndex: number) {
	return new NodeOperationError(this.getNode(), `${what} is not a non-empty text`, {
		itemIndex,
		description:
			'Every input to embed must be a non-empty string. Filter out empty items first, or fix the expression or field name.',
	});
}

function textsOfItem(this: IExecuteFunctions, itemIndex: number): string[] {
	const value = this.getNodeParameter('text', itemIndex) as unknown;
	const texts = Array.isArray(value) ? value : [value];
	if (!texts.length || texts.some((text) => typeof text !== 'string' || !text.trim())) {
		throw invalidText.call(this, 'The text', itemIndex);
	}
	return texts as string[];
}

async function embed(
	this: IExecuteFunctions,
	appId: number,
	texts: string[],
	itemIndex: number,
): Promise<{ vectors: Vector[]; model: string }> {
	const model = String(this.getNodeParameter('model', itemIndex, '') ?? '').trim();
	if (!model) {
		throw new NodeOperationError(this.getNode(), 'No model given', {
			itemIndex,
			description: 'Enter an embedding model, e.g. text-embedding-3-small.',
		});
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as EmbeddingOptions;
	const encoding = options.encoding ?? 'float';
	const body: IDataObject = {
		model,
		input: texts.length === 1 ? texts[0] : texts,
		encoding_format: encoding,
	};
	if (options.dimensions !== undefined) {
		assertTakesDimensions(this.getNode(), model, itemIndex);
		body.dimensions = options.dimensions;
	}
	const response = await aiRequest.call(this, appId, 'embeddings', { body }, itemIndex);
	const vectors = vectorsFrom(response, texts.length, encoding);
	if (typeof vectors === 'string') {
		throw new NodeOperationError(this.getNode(), `Unexpected embeddings response: ${vectors}`, {
			itemIndex,
			description:
				'The vectors could not be matched to the inputs, so none were output. Please report the response.',
		});
	}
	return { vectors, model: typeof response.model === 'string' ? response.model : model };
}

function outputField(this: IExecuteFunctions): string {
	return (this.getNodeParameter('options', 0, {}) as EmbeddingOptions).outputField || 'embedding';
}

/** An error that stops the node names the items already embedded, without their vectors. */
function embeddedOnce(field: string): SendOncePlan {
	return {
		...AI_REQUEST_ONCE,
		keep: (output) => Object.fromEntries(Object.entries(output).filter(([key]) => key !== field)),
	};
}

async function perItem(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const field = outputField.call(this);
	return await mapItemsOnce.call(this, items, embeddedOnce(field), async (itemIndex) => {
		const texts = textsOfItem.call(this, itemIndex);
		const appId = await getAppId.call(this, itemIndex);
		const { vectors, model } = await embed.call(this, appId, texts, itemIndex);
		return texts.map(
			(text, index): IDataObject => ({ text, [field]: vectors[index], index, model }),
		);
	});
}

/** One request per batch of items; every output item is paired with the item it came from. */
async function batched(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const path = this.getNodeParameter('field', 0) as string;
	const field = outputField.call(this);
	// The same app picked by name is looked up once, not once per item.
	const appIds = new Map<string, Promise<number>>();
	return await (sendInBatches<{ appId: number; text: string }>).call(this, items, {
		...embeddedOnce(field),
		batchSize: this.getNodeParameter('batchSize', 0, 100) as number,
		prepare: async (itemIndex) => {
			const text = readPath(items[itemIndex].json, path);
			if (typeof text !== 'string' || !text.trim()) {
				throw invalidText.call(this, `The field "${path}" of item ${itemIndex}`, itemIndex);
			}
			const locator = JSON.stringify(this.getNodeParameter('app', itemIndex));
			if (!appIds.has(locator)) appIds.set(locator, getAppId.call(this, itemIndex));
			return { appId: await appIds.get(locator)!, text };
		},
		// Items may name different apps (an expression): each request carries one app's texts only.
		groupBy: ({ appId }) => String(appId),
		send: async (batch) => {
			const texts = batch.map(({ payload }) => payload.text);
			const first = batch[0];
			const { vectors, model } = await embed.call(
				this,
				first.payload.appId,
				texts,
				first.itemIndex,
			);
			return batch.map(({ itemIndex }, index) => ({
				...items[itemIndex].json,
				[field]: vectors[index],
				model,
			}));
		},
	});
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const source = this.getNodeParameter('inputSource', 0) as string;
	return source === 'field' ? await batched.call(this, items) : await perItem.call(this, items);
}
