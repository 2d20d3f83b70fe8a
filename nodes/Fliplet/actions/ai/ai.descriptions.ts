import type { INodeProperties } from 'n8n-workflow';

import { appLocator } from '../common.descriptions';

/** The app whose AI credits pay for the call: always the published app. */
export const aiAppLocator: INodeProperties = appLocator({
	description:
		"The published app whose AI credits pay for the call. Use the live app's ID (productionAppId, shown by App → Get Many), not the draft's: AI calls to a draft or to an app the token cannot reach answer 404.",
});

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
