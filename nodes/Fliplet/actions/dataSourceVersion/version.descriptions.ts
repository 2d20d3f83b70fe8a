import type { INodeProperties } from 'n8n-workflow';

export const versionIdField: INodeProperties = {
	displayName: 'Version ID',
	name: 'versionId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1234',
	description: 'The ID of the version, as Get Many lists it',
};
