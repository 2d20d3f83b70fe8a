import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

function currentValue(this: ILoadOptionsFunctions, name: string): string {
	const value = this.getCurrentNodeParameter(name) as unknown;
	const raw =
		typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value;
	return String(raw ?? '').trim();
}

/** The app or organization the operation names (Get Many, Create), if any. */
function contextQueries(this: ILoadOptionsFunctions): IDataObject[] | undefined {
	const scope = currentValue.call(this, 'scope');
	const id = currentValue.call(this, scope === 'organization' ? 'organizationId' : 'app');
	if (!scope || !/^\d+$/.test(id)) return undefined;
	return [scope === 'organization' ? { organizationId: id } : { appId: id }];
}

/** The data sources of every app the token reaches, when the operation names no app. */
async function appQueries(this: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const body = await flipletApiRequest.call(this, { method: 'GET', path: apiPath('apps') });
	const ids = listFrom(this.getNode(), body, 'apps').map((app) => app.productionAppId ?? app.id);
	return [...new Set(ids.filter((id) => id !== null && id !== undefined))].map((appId) => ({
		appId,
	}));
}

export async function searchDataSources(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const queries = contextQueries.call(this) ?? (await appQueries.call(this));
	const seen = new Set<unknown>();
	const results: INodeListSearchResult['results'] = [];
	for (const qs of queries) {
		let body: unknown;
		try {
			body = await flipletApiRequest.call(this, {
				method: 'GET',
				path: apiPath('data-sources'),
				qs,
			});
		} catch {
			continue; // an app the token lists but whose data sources it may not read
		}
		for (const dataSource of listFrom(this.getNode(), body, 'dataSources')) {
			const name = String(dataSource.name ?? '');
			if (seen.has(dataSource.id) || (filter && !name.toLowerCase().includes(filter.toLowerCase())))
				continue;
			seen.add(dataSource.id);
			results.push({ name: `${name} (${String(dataSource.id)})`, value: String(dataSource.id) });
		}
	}
	return { results };
}
