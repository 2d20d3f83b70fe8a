import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listDeletedDataSources } from '../../helpers/deletedDataSources';
import { addressableAppId, listApps } from '../../helpers/locators';
import { asNodeError, httpStatusOf } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { searchLists } from './searchCache';

/** The data sources of every app (and organization) the token reaches, and those apps' names. */
interface TokenListing {
	appNames: Map<number, string>;
	dataSources: IDataObject[];
}

/**
 * Every value, once all have settled; else the first failure, still after all settled: a search
 * that fails leaves no request of its own in flight behind it.
 */
async function allSettledOrFirstError<T extends readonly unknown[]>(
	promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
	const settled = await Promise.allSettled(promises);
	const failed = settled.find((outcome) => outcome.status === 'rejected');
	if (failed) throw failed.reason;
	return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as {
		-readonly [K in keyof T]: Awaited<T[K]>;
	};
}

/** A refused token or permission must reach the user; any other failure only hides that app. */
function isAuthError(error: unknown): boolean {
	const code = httpStatusOf(error);
	return code === '401' || code === '403';
}

async function listDataSources(
	this: ILoadOptionsFunctions,
	qs: IDataObject,
): Promise<IDataObject[]> {
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: apiPath('data-sources'),
		qs,
	});
	return listFrom(this.getNode(), body, 'dataSources');
}

/**
 * The token's own data sources, listed without an app or organization as the platform's sync
 * agent lists them; undefined when the API refuses that (SPEC.md asks for one of them).
 */
async function tokenWideList(this: ILoadOptionsFunctions): Promise<IDataObject[] | undefined> {
	try {
		return await listDataSources.call(this, {});
	} catch (error) {
		if (['400', '403', '404'].includes(httpStatusOf(error))) return undefined;
		throw asNodeError(this.getNode(), error);
	}
}

/** One list per app, all at once (the transport paces them within the token's limit). */
async function perAppLists(
	this: ILoadOptionsFunctions,
	apps: IDataObject[],
): Promise<IDataObject[]> {
	const appIds = [...new Set(apps.map(addressableAppId))].filter(Number.isInteger);
	const lists = await allSettledOrFirstError(
		appIds.map(async (appId) => {
			try {
				return await listDataSources.call(this, { appId });
			} catch (error) {
				if (isAuthError(error)) throw asNodeError(this.getNode(), error);
				return []; // e.g. an app the token lists but whose data sources cannot be read
			}
		}),
	);
	return lists.flat();
}

/**
 * Every data source the token reaches, with the apps (for their names): the apps and the
 * token-wide list are asked for together, one round trip; where the token-wide list is refused,
 * each app's list follows, together.
 */
async function tokenListing(this: ILoadOptionsFunctions): Promise<TokenListing> {
	const [apps, tokenWide] = await allSettledOrFirstError([
		listApps.call(this),
		tokenWideList.call(this),
	] as const);
	const dataSources = tokenWide ?? (await perAppLists.call(this, apps));
	return { appNames: appNamesOf(apps), dataSources };
}

/**
 * Each app's name by its id and by its published app's id (a data source names either), built once
 * per listing read (the searches typed after it reuse it) rather than looked up in the app list
 * for each data source shown.
 */
function appNamesOf(apps: IDataObject[]): Map<number, string> {
	const names = new Map<number, string>();
	// Reversed, so the first app listed with an id wins, as a search of the list would find it.
	for (const app of [...apps].reverse()) {
		for (const id of [Number(app.productionAppId), Number(app.id)]) {
			if (Number.isInteger(id)) names.set(id, String(app.name ?? `App ${id}`));
		}
	}
	return names;
}

/** "Staff (Staff Directory, 100)": the name, its app's name and the ID. */
function resultName(dataSource: IDataObject, appNames: Map<number, string>): string {
	const name = String(dataSource.name ?? '');
	const id = String(dataSource.id);
	const appId = Number(dataSource.appId);
	// An organization's data source of no app (organization and Studio user tokens list them).
	if (dataSource.appId === null || !Number.isInteger(appId)) return `${name} (${id})`;
	return `${name} (${appNames.get(appId) ?? `App ${appId}`}, ${id})`;
}

/**
 * Every data source the token reaches, named with its app. No operation with a data source
 * locator also names an app, so the list always covers the token's apps.
 */
export async function searchDataSources(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { appNames, dataSources } = await searchLists(
		this,
		'dataSources',
		filter,
		async () => await tokenListing.call(this),
	);
	const needle = filter?.toLowerCase();
	const seen = new Set<unknown>();
	const results: INodeListSearchResult['results'] = [];
	for (const dataSource of dataSources) {
		if (seen.has(dataSource.id)) continue;
		const name = String(dataSource.name ?? '').toLowerCase();
		if (needle && !name.includes(needle)) continue;
		seen.add(dataSource.id);
		results.push({ name: resultName(dataSource, appNames), value: String(dataSource.id) });
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
