import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { addressableAppId } from '../../helpers/locators';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

function matches(name: unknown, filter?: string): boolean {
	return (
		!filter ||
		String(name ?? '')
			.toLowerCase()
			.includes(filter.toLowerCase())
	);
}

export async function searchApps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await flipletApiRequest.call(this, { method: 'GET', path: apiPath('apps') });
	const apps = listFrom(this.getNode(), body, 'apps').filter((app) => matches(app.name, filter));
	return {
		results: apps.map((app) => ({
			name: `${String(app.name)} (${addressableAppId(app)})`,
			value: String(addressableAppId(app)),
		})),
	};
}
