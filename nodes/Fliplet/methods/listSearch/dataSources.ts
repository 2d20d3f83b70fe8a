import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listDeletedDataSources } from '../../helpers/deletedDataSources';
import { asNodeError, httpStatusOf } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

function currentValue(this: ILoadOptionsFunctions, name: string): string {
	const value = this.getCurrentNodeParameter(name) as unknown;
	const raw =
		typeof value === 'object' && value !== null ? (value as { value?: unknown }).value : value;
	return String(raw ?? '').trim();
}

/** One data source list to read, and the app it belongs to when several apps are listed. */
interface ListQuery {
	qs: IDataObject;
	appName?: string;
}

/** The app or organization the operation names (Get Many, Create), if any. */
function contextQueries(this: ILoadOptionsFunctions): ListQuery[] | undefined {
	const scope = currentValue.call(this, 'scope');
	const id = currentValue.call(this, scope === 'organization' ? 'organizationId' : 'app');
	if (!scope || !/^\d+$/.test(id)) return undefined;
	return [{ qs: scope === 'organization' ? { organizationId: id } : { appId: id } }];
}

/**
 * The data sources of every app the token reaches, when the operation names no app. The API lists
 * data sources per app (or organization) only, so this is one request per app.
 */
async function appQueries(this: ILoadOptionsFunctions): Promise<ListQuery[]> {
	const body = await flipletApiRequest.call(this, { method: 'GET', path: apiPath('apps') });
	const queries = new Map<string, ListQuery>();
	for (const app of listFrom(this.getNode(), body, 'apps')) {
		const appId = app.productionAppId ?? app.id;
		if (appId === null || appId === undefined || queries.has(String(appId))) continue;
		queries.set(String(appId), { qs: { appId }, appName: String(app.name ?? `App ${appId}`) });
	}
	return [...queries.values()];
}

/** A refused token or permission must reach the user; any other failure only hides that app. */
function isAuthError(error: unknown): boolean {
	const code = httpStatusOf(error);
	return code === '401' || code === '403';
}

export async function searchDataSources(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const queries = contextQueries.call(this) ?? (await appQueries.call(this));
	const seen = new Set<unknown>();
	const results: INodeListSearchResult['results'] = [];
	for (const { qs, appName } of queries) {
		let body: unknown;
		try {
			body = await flipletApiRequest.call(this, {
				method: 'GET',
				path: apiPath('data-sources'),
				qs,
			});
		} catch (error) {
			if (isAuthError(error)) throw asNodeError(this.getNode(), error);
			continue; // e.g. an app the token lists but whose data sources cannot be read
		}
		for (const dataSource of listFrom(this.getNode(), body, 'dataSources')) {
			const name = String(dataSource.name ?? '');
			if (seen.has(dataSource.id) || (filter && !name.toLowerCase().includes(filter.toLowerCase())))
				continue;
			seen.add(dataSource.id);
			const id = String(dataSource.id);
			results.push({
				name: appName ? `${name} (${appName}, ${id})` : `${name} (${id})`,
				value: id,
			});
		}
	}
	return { results };
}

/** Deleted data sources (Fliplet Studio's trash), for Restore: by name, with when they were deleted. */
export async function searchDeletedDataSources(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const wanted = filter?.toLowerCase();
	const results: INodeListSearchResult['results'] = [];
	for (const dataSource of await listDeletedDataSources.call(this)) {
		const name = String(dataSource.name ?? '');
		if (wanted && !name.toLowerCase().includes(wanted)) continue;
		const id = String(dataSource.id);
		const deletedAt = typeof dataSource.deletedAt === 'string' ? dataSource.deletedAt : '';
		results.push({
			name: deletedAt ? `${name} (${id}, deleted ${deletedAt.slice(0, 10)})` : `${name} (${id})`,
			value: id,
		});
	}
	return { results };
}
