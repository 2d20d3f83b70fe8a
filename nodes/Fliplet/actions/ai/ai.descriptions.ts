import type { INodeProperties } from 'n8n-workflow';

import { appLocator } from '../common.descriptions';

/** The app whose AI credits pay for the call: always the published app. */
export const aiAppLocator: INodeProperties = appLocator({
	description:
		"The published app whose AI credits pay for the call. Use the live app's ID (productionAppId, shown by App → Get Many), not the draft's: AI calls to a draft or to an app the token cannot reach answer 404.",
});

/**
 * Timeout of one AI call, for the AI sub-nodes: a call that timed out may still have been charged,
 * so it is never sent again.
 */
export const aiTimeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1000 },
	default: 120000,
	description:
		'Milliseconds to wait for one answer. A call that times out may still have been charged, so it is not sent again.',
};

/** The embeddings' Dimensions option, for the Create Embeddings operation and the Embeddings sub-node. */
export const dimensionsOption: INodeProperties = {
	displayName: 'Dimensions',
	name: 'dimensions',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 1536,
	description:
		'Length of each vector, for models that support it (text-embedding-3-*). Stored and query vectors must use the same model and dimensions.',
};

export function modelField(
	defaultModel: string,
	suggestions: string[],
	what: string,
): INodeProperties {
	return {
		displayName: 'Model',
		name: 'model',
		type: 'string',
		required: true,
		default: defaultModel,
		placeholder: `e.g. ${suggestions[0]}`,
		description: `The ${what} model, as configured for the app's AI. Common values: ${suggestions.join(', ')}.`,
	};
}
