import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maxResults, takeFirst } from '../../helpers/limits';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit, simplifyOption } from '../common.descriptions';

const properties: INodeProperties[] = [...returnAllOrLimit(), simplifyOption];

export const description = updateDisplayOptions(
	{ show: { resource: ['app'], operation: ['getMany'] } },
	properties,
);

const SIMPLE_FIELDS = [
	'id',
	'name',
	'productionAppId',
	'organizationId',
	'version',
	'slug',
	'icon',
	'updatedAt',
];

export function simplifyApp(app: IDataObject): IDataObject {
	return Object.fromEntries(
		SIMPLE_FIELDS.filter((field) => field in app).map((field) => [field, app[field]]),
	);
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const max = maxResults.call(this, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('apps'),
			itemIndex,
		});
		const apps = takeFirst(listFrom(this.getNode(), body, 'apps', itemIndex), max);
		const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
		return simplify ? apps.map(simplifyApp) : apps;
	});
}
