import { rememberBounded } from '../helpers/boundedMemory';
import { tokenKey } from './tokenKey';

/**
 * Whose AI limit an app's AI requests count against. The vendor's AI docs say the limits "apply to
 * the overall usage of the AI APIs under your account/organization"; SPEC says one limit per app.
 * An organization's window holds both readings, so it is used wherever the app's organization is
 * known: the apps the token can reach (`GET /v1/apps`) say, once per process and token.
 */

interface Lookup {
	/** App id (draft and published) → its organization. */
	organizations: Map<number, number>;
	/** When the listing was read (or failed). */
	at: number;
	/** The listing on its way, shared by the requests that wait for it. */
	pending?: Promise<void>;
}

/** A listing older than this is read again when it lacks the app (an app created since). */
const REFRESH_AFTER_MS = 60_000;
const MAX_TOKENS = 500;
const lookups = new Map<string, Lookup>();

/** The apps a token can reach, as `GET /v1/apps` lists them (a list, or `{apps: [...]}`). */
export type ListApps = () => Promise<unknown>;

function organizationsOf(listing: unknown): Map<number, number> {
	const apps = Array.isArray(listing) ? listing : (listing as { apps?: unknown } | undefined)?.apps;
	const organizations = new Map<number, number>();
	if (!Array.isArray(apps)) return organizations;
	for (const app of apps as Array<Record<string, unknown>>) {
		const organization = Number(app?.organizationId);
		if (!Number.isInteger(organization)) continue;
		for (const id of [app.id, app.productionAppId]) {
			if (Number.isInteger(Number(id)) && id !== null) organizations.set(Number(id), organization);
		}
	}
	return organizations;
}

/**
 * The scope of the AI window of `app` (`organization 7`), or undefined when the organization
 * cannot be learned (the listing failed, or does not hold the app): the window is then the
 * token's. A failed listing is not asked again for a minute.
 */
export async function aiScopeOf(
	origin: string,
	token: unknown,
	app: string,
	listApps: ListApps,
): Promise<string | undefined> {
	const appId = Number(app);
	if (!Number.isInteger(appId)) return undefined;
	const key = `${origin} ${tokenKey(token)}`;
	let lookup = lookups.get(key);
	const stale =
		!lookup || (!lookup.organizations.has(appId) && Date.now() - lookup.at >= REFRESH_AFTER_MS);
	if (stale && !lookup?.pending) {
		const entry: Lookup = lookup ?? { organizations: new Map(), at: 0 };
		entry.pending = listApps().then(
			(listing) => {
				entry.organizations = organizationsOf(listing);
				entry.at = Date.now();
				entry.pending = undefined;
			},
			() => {
				entry.at = Date.now();
				entry.pending = undefined;
			},
		);
		rememberBounded(lookups, key, entry, MAX_TOKENS);
		lookup = entry;
	}
	await lookup!.pending;
	const organization = lookup!.organizations.get(appId);
	return organization === undefined ? undefined : `organization ${organization}`;
}

/** Forgets every organization learned, as a restarted n8n would (with forgetRateWindows). */
export function forgetAiScopes(): void {
	lookups.clear();
}
