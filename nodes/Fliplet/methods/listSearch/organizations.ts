import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

const APP_NAMES_SHOWN = 3;

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
		const names = appNames.get(id) ?? [];
		names.push(String(app.name ?? app.id));
		appNames.set(id, names);
	}
	const needle = filter?.toLowerCase();
	const matches = (id: string, names: string[]) =>
		!needle || [`organization ${id}`, ...names].some((text) => text.toLowerCase().includes(needle));
	return {
		results: [...appNames.entries()]
			.filter(([id, names]) => matches(id, names))
			.map(([id, names]) => ({ name: `Organization ${id} (${appSummary(names)})`, value: id })),
	};
}

/** A few app names, so an organization with hundreds of apps still gets a readable entry. */
function appSummary(names: string[]): string {
	const shown = names.slice(0, APP_NAMES_SHOWN).join(', ');
	const more = names.length - APP_NAMES_SHOWN;
	return more > 0 ? `${shown} and ${more} more app${more === 1 ? '' : 's'}` : shown;
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
