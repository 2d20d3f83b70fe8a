import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { AI_REQUEST_ONCE, aiRequest } from '../../helpers/aiRequest';
import { getAppId } from '../../helpers/locators';
import { mapItemsToExecutionDataOnce } from '../../helpers/mapItems';
import { aiAppLocator, modelField } from './ai.descriptions';

const MIME_TYPES: Record<string, string> = {
	png: 'image/png',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
};

const properties: INodeProperties[] = [
	aiAppLocator,
	modelField('gpt-image-1.5', ['gpt-image-1.5', 'gpt-image-1', 'gpt-image-1-mini'], 'image'),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. A flat icon of a clipboard with a green tick',
		description: 'What the image should show',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'All Images on One Item',
				name: 'oneItem',
				type: 'boolean',
				default: false,
				description:
					'Whether to put every image on a single output item (binary properties data, data_1, data_2 …) instead of one item per image',
			},
			{
				displayName: 'Number of Images',
				name: 'n',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 10 },
				default: 1,
				description: 'How many images to generate',
			},
			{
				displayName: 'Output Format',
				name: 'outputFormat',
				type: 'options',
				default: 'png',
				options: [
					{ name: 'PNG', value: 'png' },
					{ name: 'JPEG', value: 'jpeg' },
					{ name: 'WebP', value: 'webp' },
				],
				description: 'The image file type',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description: 'The binary property the image is stored in',
			},
			{
				displayName: 'Quality',
				name: 'quality',
				type: 'options',
				default: 'auto',
				options: [
					{ name: 'Auto', value: 'auto' },
					{ name: 'High', value: 'high' },
					{ name: 'Medium', value: 'medium' },
					{ name: 'Low', value: 'low' },
				],
				description: 'Higher quality uses more credits',
			},
			{
				displayName: 'Size',
				name: 'size',
				type: 'string',
				default: '1024x1024',
				placeholder: 'e.g. 1024x1536',
				description:
					'Width x height in pixels, as the model accepts (e.g. 1024x1024, 1536x1024, 1024x1536, auto)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ai'], operation: ['generateImage'] } },
	properties,
);

interface ImageOptions {
	oneItem?: boolean;
	n?: number;
	outputFormat?: string;
	binaryPropertyName?: string;
	quality?: string;
	size?: string;
}

function requestBody(
	this: IExecuteFunctions,
	itemIndex: number,
	options: ImageOptions,
): IDataObject {
	const model = String(this.getNodeParameter('model', itemIndex, '') ?? '').trim();
	const prompt = String(this.getNodeParameter('prompt', itemIndex, '') ?? '').trim();
	if (!model || !prompt) {
		throw new NodeOperationError(this.getNode(), model ? 'The prompt is empty' : 'No model given', {
			itemIndex,
			description: 'Give an image model (e.g. gpt-image-1.5) and a prompt describing the image.',
		});
	}
	if (
		options.n !== undefined &&
		(!Number.isInteger(options.n) || options.n < 1 || options.n > 10)
	) {
		throw new NodeOperationError(
			this.getNode(),
			`Number of images must be 1 to 10, not ${options.n}`,
			{
				itemIndex,
				description: 'Set "Number of Images" to a whole number from 1 to 10.',
			},
		);
	}
	const body: IDataObject = { model, prompt };
	if (options.n !== undefined) body.n = options.n;
	if (options.size) body.size = options.size;
	if (options.quality) body.quality = options.quality;
	if (options.outputFormat) body.output_format = options.outputFormat;
	return body;
}

function imagesFrom(this: IExecuteFunctions, response: IDataObject, itemIndex: number): string[] {
	const data = response.data;
	const images = Array.isArray(data) ? (data as IDataObject[]).map((entry) => entry?.b64_json) : [];
	if (!images.length || images.some((image) => typeof image !== 'string' || !image)) {
		throw new NodeOperationError(this.getNode(), 'Unexpected response: no base64 image in it', {
			itemIndex,
			description: 'The platform should return data[].b64_json. Check the model is an image model.',
		});
	}
	return images as string[];
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsToExecutionDataOnce.call(this, items, AI_REQUEST_ONCE, async (itemIndex) => {
		const options = this.getNodeParameter('options', itemIndex, {}) as ImageOptions;
		const body = requestBody.call(this, itemIndex, options);
		const appId = await getAppId.call(this, itemIndex);
		const response = await aiRequest.call(this, appId, 'image', { body }, itemIndex);
		const images = imagesFrom.call(this, response, itemIndex);
		const extension = options.outputFormat ?? 'png';
		const property = options.binaryPropertyName || 'data';
		const binaries = await Promise.all(
			images.map(
				async (image, index) =>
					await this.helpers.prepareBinaryData(
						Buffer.from(image, 'base64'),
						`image-${index + 1}.${extension}`,
						MIME_TYPES[extension] ?? 'application/octet-stream',
					),
			),
		);
		const details = { model: body.model, prompt: body.prompt, created: response.created };
		if (options.oneItem) {
			const binary: IBinaryKeyData = {};
			binaries.forEach((data, index) => (binary[index ? `${property}_${index}` : property] = data));
			return [{ json: { ...details, images: images.length }, binary }];
		}
		return binaries.map((data, index) => ({
			json: { ...details, index },
			binary: { [property]: data },
		}));
	});
}
