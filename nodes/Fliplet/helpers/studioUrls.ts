/**
 * Ids in an address pasted into a locator's "By URL" mode: a Fliplet Studio page of an app
 * (`https://studio.fliplet.com/apps/123/…`), or an API address (`…/v1/apps/123`,
 * `…/v1/data-sources/456`). See docs/api-choices.md, "Apps and analytics", for the shapes and
 * where they were seen.
 */

const WHOLE_NUMBER = /^\d+$/;

/** The path segments and query of an address, its `#/…` route included; none if it is no address. */
function partsOf(text: string): { segments: string[]; query: URLSearchParams } | undefined {
	const trimmed = text.trim();
	if (!trimmed) return undefined;
	let url: URL;
	try {
		// An address copied without its scheme (studio.fliplet.com/apps/123) is read as https.
		url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
	} catch {
		return undefined;
	}
	// A single-page app may route after the hash: #/apps/123/…
	const route = url.hash.replace(/^#!?/, '');
	const [routePath, routeQuery = ''] = route.split('?');
	const segments = `${url.pathname}/${routePath}`.split('/').filter(Boolean);
	const query = new URLSearchParams(url.search);
	for (const [name, value] of new URLSearchParams(routeQuery)) query.append(name, value);
	return { segments, query };
}

/** The whole number right after the first of `names` in the path, if any. */
function idAfter(segments: string[], names: string[]): number | undefined {
	for (let index = 0; index < segments.length - 1; index++) {
		if (names.includes(segments[index].toLowerCase()) && WHOLE_NUMBER.test(segments[index + 1]))
			return Number(segments[index + 1]);
	}
	return undefined;
}

/** The app id an address names (`/apps/<id>` or `/app/<id>`): in Studio, the draft app's id. */
export function appIdInUrl(text: string): number | undefined {
	const parts = partsOf(text);
	return parts && idAfter(parts.segments, ['apps', 'app']);
}

/** The data source id an address names (`/data-sources/<id>`, or `?dataSourceId=<id>`). */
export function dataSourceIdInUrl(text: string): number | undefined {
	const parts = partsOf(text);
	if (!parts) return undefined;
	const inPath = idAfter(parts.segments, ['data-sources']);
	if (inPath !== undefined) return inPath;
	const inQuery = parts.query.get('dataSourceId') ?? '';
	return WHOLE_NUMBER.test(inQuery) ? Number(inQuery) : undefined;
}
