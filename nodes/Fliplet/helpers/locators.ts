import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath, flipletApiRequest, type FlipletContext } from '../transport';
import { listFrom } from './responses';
import { appIdInUrl } from './studioUrls';

type NamedRecord = IDataObject & { id?: unknown; name?: unknown };

/** Picks the one record whose name matches exactly (or, failing that, ignoring case). */
export function pickByName<T extends NamedRecord>(records: T[], name: string): T[] {
	const exact = records.filter((record) => record.name === name);
	if (exact.length) return exact;
	const lower = name.toLowerCase();
	return records.filter((record) => String(record.name ?? '').toLowerCase() === lower);
}

/**
 * What reading a locator needs: the node (for errors) and its parameters. Every context of the
 * nodes has both, so a trigger reads its locators with the same helpers (as item 0: a trigger has
 * one set of parameters).
 */
export interface LocatorContext {
	getNode(): INode;
	getNodeParameter(parameterName: string, itemIndex: number): unknown;
}

export function readLocator(
	this: LocatorContext,
	parameterName: string,
	itemIndex: number,
): { mode: string; value: string } {
	const locator = this.getNodeParameter(parameterName, itemIndex) as
		| INodeParameterResourceLocator
		| string
		| number;
	if (typeof locator !== 'object' || locator === null)
		return { mode: 'id', value: String(locator ?? '').trim() };
	return { mode: String(locator.mode), value: String(locator.value ?? '').trim() };
}

export function requireWholeNumber(
	this: LocatorContext,
	value: string,
	label: string,
	itemIndex: number,
): number {
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(this.getNode(), `${label}: "${value}" is not an id`, {
			itemIndex,
			description: `Give the ${label.toLowerCase()} as a whole number (e.g. 123), or pick it from the list.`,
		});
	}
	return Number(value);
}

/** A whole-number id typed into a field (trimmed), refused like `requireWholeNumber`. */
export function readWholeNumberParameter(
	this: IExecuteFunctions,
	parameterName: string,
	label: string,
	itemIndex: number,
	fallback?: string,
): number {
	const value = String(this.getNodeParameter(parameterName, itemIndex, fallback)).trim();
	return requireWholeNumber.call(this, value, label, itemIndex);
}

/**
 * The id an API call should address for an app record: its published app (`productionAppId`),
 * which every token kind reaches, or the app's own id while it was never published.
 */
export function addressableAppId(app: IDataObject): number {
	const published = Number(app.productionAppId);
	return Number.isInteger(published) && published > 0 ? published : Number(app.id);
}

/** The apps the token reaches (`GET /v1/apps`): one request. */
export async function listApps(this: FlipletContext, itemIndex?: number): Promise<IDataObject[]> {
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: apiPath('apps'),
		itemIndex,
	});
	return listFrom(this.getNode(), body, 'apps', itemIndex);
}

/** The token's apps per node run (keyed on its execution context, so nothing outlives the run). */
const appsOfRun = new WeakMap<object, IDataObject[]>();

/** The apps the token reaches, read once per node run rather than once per item named "By Name". */
async function accessibleApps(this: FlipletContext, itemIndex: number): Promise<IDataObject[]> {
	const known = appsOfRun.get(this);
	if (known) return known;
	const apps = await listApps.call(this, itemIndex);
	appsOfRun.set(this, apps);
	return apps;
}

/**
 * The app id of the `app` locator; "By Name" is looked up in the apps the token can reach and
 * resolves to the published app's id (app API tokens cannot reach the draft).
 */
export async function getAppId(
	this: FlipletContext,
	itemIndex: number,
	parameterName = 'app',
): Promise<number> {
	const { mode, value } = readLocator.call(this, parameterName, itemIndex);
	if (!value) {
		throw new NodeOperationError(this.getNode(), 'No app given', {
			itemIndex,
			description: 'Pick an app from the list, or give its id or name.',
		});
	}
	if (mode === 'url') return await publishedAppOfUrl.call(this, value, itemIndex);
	if (mode !== 'name') return requireWholeNumber.call(this, value, 'App', itemIndex);
	const matches = pickByName(await accessibleApps.call(this, itemIndex), value);
	if (matches.length !== 1) {
		throw new NodeOperationError(
			this.getNode(),
			matches.length ? `Several apps are named "${value}"` : `No app named "${value}"`,
			{ itemIndex, description: 'Pick the app from the list or give its id instead.' },
		);
	}
	return addressableAppId(matches[0]);
}

/** The app record among the token's apps whose draft or published id is `id`. */
export function appWithId(apps: IDataObject[], id: number): IDataObject | undefined {
	return apps.find((app) => Number(app.id) === id || Number(app.productionAppId) === id);
}

/**
 * "By URL": the app of a Fliplet Studio address, which shows the id of the draft app being edited.
 * It resolves to the published app (`productionAppId`), the one every token kind reaches (an app
 * API token reaches only that); an app the token does not list, or one never published, is refused
 * with what to do instead.
 */
async function publishedAppOfUrl(
	this: FlipletContext,
	url: string,
	itemIndex: number,
): Promise<number> {
	const id = appIdInUrl(url);
	if (id === undefined) {
		throw new NodeOperationError(this.getNode(), 'App: this URL names no app', {
			itemIndex,
			description:
				"Paste the address of the app in Fliplet Studio (it holds /apps/ and the app's id, e.g. https://studio.fliplet.com/apps/123/…), or pick the app from the list.",
		});
	}
	const app = appWithId(await accessibleApps.call(this, itemIndex), id);
	if (!app) {
		throw new NodeOperationError(
			this.getNode(),
			`App ${id} of this URL is not one this token reaches`,
			{
				itemIndex,
				description:
					"A Fliplet Studio URL shows the id of the draft app you edit. An app API token reaches only its own app, and only once it is published (its published copy has another id, which the node looks up). Publish the app in Fliplet Studio, use this app's API token (or an organization token), or pick the app from the list.",
			},
		);
	}
	const published = Number(app.productionAppId);
	if (!Number.isInteger(published) || published <= 0) {
		throw new NodeOperationError(
			this.getNode(),
			`App ${id} ("${String(app.name ?? id)}") was never published`,
			{
				itemIndex,
				description:
					'"By URL" uses the published app, the one API tokens work with (app API tokens cannot reach a draft, and AI works only with the published app). Publish the app in Fliplet Studio first, or give its draft id "By ID" if your token is an organization token.',
			},
		);
	}
	return published;
}
