import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { getAppId } from '../../helpers/locators';
import { mapItemsOnce } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { appLocator } from '../common.descriptions';

const properties: INodeProperties[] = [
	appLocator(),
	{
		displayName: 'Release Type',
		name: 'releaseType',
		type: 'options',
		default: 'silent',
		options: [
			{
				name: 'Silent',
				value: 'silent',
				description: 'Users get the update the next time the app loads',
			},
			{ name: 'Visible', value: 'visible', description: 'Users are told an update is available' },
			{ name: 'Forced', value: 'forced', description: 'Users must install the update to continue' },
		],
	},
	{
		displayName: 'Changelog',
		name: 'changelog',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. New directory layout',
		description: 'Release notes shown with the update',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['app'], operation: ['publish'] } },
	properties,
);

const RELEASE_TYPES = ['silent', 'visible', 'forced'];

const PUBLISHED = { noun: 'app', done: 'published' };
/**
 * The published app with its version as a number, whichever way the platform writes it: an
 * integer (SPEC) or its text (the source-checked docs, 201 with `version` as a string).
 */
function withNumericVersion(app: IDataObject): IDataObject {
	const { version } = app;
	return typeof version === 'string' && /^\d+$/.test(version)
		? { ...app, version: Number(version) }
		: app;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsOnce.call(this, items, PUBLISHED, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const release = {
			type: this.getNodeParameter('releaseType', itemIndex) as string,
			changelog: this.getNodeParameter('changelog', itemIndex, '') as string,
		};
		if (!RELEASE_TYPES.includes(release.type)) {
			throw new NodeOperationError(
				this.getNode(),
				`Release Type: "${release.type}" is not a release type`,
				{ itemIndex, description: 'Use silent, visible or forced.' },
			);
		}
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('apps', appId, 'publish'),
			body: { release },
			itemIndex,
		});
		return withNumericVersion(objectFrom(body, 'app'));
	});
}
