import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../types';
import * as createEmbeddings from './createEmbeddings.operation';
import * as generateImage from './generateImage.operation';
import * as generateText from './generateText.operation';
import * as transcribeAudio from './transcribeAudio.operation';

export const operations: Record<string, OperationModule> = {
	createEmbeddings,
	generateImage,
	generateText,
	transcribeAudio,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['ai'] } },
		options: [
			{
				name: 'Create Embeddings',
				value: 'createEmbeddings',
				description:
					"Turn texts into numeric vectors for semantic search, clustering or a vector store, charged to the app's AI credits",
				action: 'Create embeddings',
			},
			{
				name: 'Generate Image',
				value: 'generateImage',
				description: 'Create images from a text prompt; each image is returned as a binary file',
				action: 'Generate an image',
			},
			{
				name: 'Generate Text',
				value: 'generateText',
				description:
					'Ask a language model (GPT, Gemini) to answer, summarise, classify or extract from text, without a provider key',
				action: 'Generate text',
			},
			{
				name: 'Transcribe Audio',
				value: 'transcribeAudio',
				description: 'Turn a recording (webm, mp4, mp3, wav or ogg up to 25 MiB) into text',
				action: 'Transcribe audio',
			},
		],
		default: 'generateText',
	},
	...createEmbeddings.description,
	...generateImage.description,
	...generateText.description,
	...transcribeAudio.description,
];
