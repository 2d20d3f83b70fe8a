import type { IDataObject } from 'n8n-workflow';

/**
 * List options that reach every notification: Fliplet lists only published notifications of the
 * caller's scope unless asked otherwise (its editor always widens both).
 */
export const LIST_EVERYTHING: IDataObject = {
	status: ['draft', 'published', 'scheduled'],
	includeAllScopes: true,
};
