import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	audioProblem,
	baseMimeType,
	TRANSCRIPTION_MODELS,
	uploadMimeType,
} from '../../helpers/aiAudio';
import { AI_REQUEST_ONCE, aiRequest } from '../../helpers/aiRequest';
import { getAppId } from '../../helpers/locators';
import { mapItemsOnce } from '../../helpers/mapItems';
import { inputBinary } from '../../helpers/inputBinary';
import { buildMultipartBody } from '../../transport';
import { aiAppLocator } from './ai.descriptions';

const properties: INodeProperties[] = [
	aiAppLocator,
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field holding the audio file',
		description: 'Audio of type webm, mp4, mpeg (mp3), wav or ogg, at most 25 MiB',
	},
	{
		displayName: 'Model',
		name: 'model',
		type: 'options',
		default: 'gpt-4o-mini-transcribe',
		options: [
			{
				name: 'GPT-4o Mini Transcribe',
				value: 'gpt-4o-mini-transcribe',
				description: 'Fast and economical',
			},
			{ name: 'GPT-4o Transcribe', value: 'gpt-4o-transcribe', description: 'Most accurate' },
			{ name: 'Whisper 1', value: 'whisper-1', description: 'The earlier speech model' },
		],
		description: 'The transcription model (the only three the platform accepts)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['ai'], operation: ['transcribeAudio'] } },
	properties,
);

/** Form part names of the transcription endpoint. */
const MODEL_PART = 'model';
const FILE_PART = 'file';

const EXTENSIONS: Record<string, string> = {
	'audio/webm': 'webm',
	'audio/mp4': 'm4a',
	'audio/mpeg': 'mp3',
	'audio/wav': 'wav',
	'audio/ogg': 'ogg',
};

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, AI_REQUEST_ONCE, async (itemIndex) => {
		const property = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
		const model = this.getNodeParameter('model', itemIndex) as string;
		if (!TRANSCRIPTION_MODELS.includes(model)) {
			throw new NodeOperationError(this.getNode(), `Unsupported transcription model "${model}"`, {
				itemIndex,
				description: `Use one of ${TRANSCRIPTION_MODELS.join(', ')}.`,
			});
		}
		const binary = inputBinary(this, itemIndex, property, 'Input Binary Field');
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		const problem = audioProblem(data.length, binary.mimeType);
		if (problem) {
			throw new NodeOperationError(this.getNode(), problem.message, {
				itemIndex,
				description: problem.description,
			});
		}
		const mimeType = uploadMimeType(binary.mimeType);
		const fileName = binary.fileName || `audio.${EXTENSIONS[baseMimeType(mimeType)]}`;
		const multipart = buildMultipartBody(
			[{ name: MODEL_PART, value: model }],
			[{ name: FILE_PART, fileName, mimeType, data }],
		);
		const appId = await getAppId.call(this, itemIndex);
		const response = await aiRequest.call(this, appId, 'audio', { multipart }, itemIndex);
		if (typeof response.text !== 'string') {
			throw new NodeOperationError(this.getNode(), 'Unexpected response: no "text" in it', {
				itemIndex,
				description: 'The platform should answer {"text": "..."}. Please report the response.',
			});
		}
		return { text: response.text };
	});
}
