import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { asNodeError, httpStatusOf } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';

const APP_NAMES_SHOWN = 3;

type Organizations = INodeListSearchResult['results'];

/**
 * The organizations of the token's user (`GET /v1/organizations`, as the platform's sync agent
 * picks one). A token that endpoint refuses gets the organizations of the apps it reaches instead.
 */
export async function searchOrganizations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	let organizations: Organizations;
	try {
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: apiPath('organizations'),
		});
		organizations = listFrom(this.getNode(), body, 'organizations').map((organization) => ({
			name: `${String(organization.name ?? 'Organization')} (${String(organization.id)})`,
			value: String(organization.id),
		}));
	} catch (error) {
		if (!['400', '403', '404'].includes(httpStatusOf(error)))
			throw asNodeError(this.getNode(), error);
		organizations = await organizationsOfApps.call(this);
	}
	const needle = filter?.toLowerCase();
	return {
		results: needle
			? organizations.filter((o) => o.name.toLowerCase().includes(needle))
			: organizations,
	};
}

/** Organizations derived from the `organizationId` of the apps the token reaches. */
async function organizationsOfApps(this: ILoadOptionsFunctions): Promise<Organizations> {
	const body = await flipletApiRequest.call(this, { method: 'GET', path: apiPath('apps') });
	const appNames = new Map<string, string[]>();
	for (const app of listFrom(this.getNode(), body, 'apps')) {
		if (app.organizationId === undefined || app.organizationId === null) continue;
		const id = String(app.organizationId);
		const names = appNames.get(id) ?? [];
		names.push(String(app.name ?? app.id));
		appNames.set(id, names);
	}
	return [...appNames.entries()].map(([id, names]) => ({
		name: `Organization ${id} (${appSummary(names)})`,
		value: id,
	}));
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
