import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

/**
 * The API has no endpoint listing organizations: they are derived from the `organizationId` of
 * the apps the token reaches, and named after those apps.
 */
export async function searchOrganizations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await flipletApiRequest.call(this, { method: 'GET', path: apiPath('apps') });
	const appNames = new Map<string, string[]>();
	for (const app of listFrom(this.getNode(), body, 'apps')) {
		if (app.organizationId === undefined || app.organizationId === null) continue;
		const id = String(app.organizationId);
		appNames.set(id, [...(appNames.get(id) ?? []), String(app.name ?? app.id)]);
	}
	const results = [...appNames.entries()].map(([id, names]) => ({
		name: `Organization ${id} (${names.join(', ')})`,
		value: id,
	}));
	const needle = filter?.toLowerCase();
	return {
		results: needle ? results.filter((r) => r.name.toLowerCase().includes(needle)) : results,
	};
}

/** The tokens of the organization picked in the node, for choosing one to delete. */
export async function searchOrganizationTokens(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const organizationId = String(
		this.getCurrentNodeParameter('organization', { extractValue: true }) ?? '',
	).trim();
	if (!/^\d+$/.test(organizationId)) return { results: [] };
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: apiPath('organizations', organizationId, 'tokens'),
	});
	const results = listFrom(this.getNode(), body, 'organizationTokens').map((token) => ({
		name: `${String(token.fullName ?? token.firstName ?? 'Token')} (${String(token.id)})`,
		value: String(token.id),
	}));
	const needle = filter?.toLowerCase();
	return {
		results: needle ? results.filter((r) => r.name.toLowerCase().includes(needle)) : results,
	};
}
