import {
	isSafeBaseUrl,
	regionFromToken,
	withoutTrailingSlashes,
	type FlipletCredentialData,
} from './baseUrl';
import { cleanFileName, percentDecoded } from '../helpers/fileNames';

/**
 * The hosts the platform serves files from besides its API host, by region, as its "Fliplet URLs
 * and IP addresses" page lists them for firewalls (`Fliplet/fliplet-cli:
 * docs/URLs-and-IP-Addresses.md`): every customer uses `cdn.fliplet.com` and `cdn.api.fliplet.com`,
 * and US and Canadian customers "also" their region's. Files on them are public: no token is sent.
 */
const EVERY_REGION = ['https://cdn.fliplet.com', 'https://cdn.api.fliplet.com'];
export const REGION_FILE_HOSTS: Record<'eu' | 'us' | 'ca', readonly string[]> = {
	eu: EVERY_REGION,
	us: [...EVERY_REGION, 'https://us.cdn.fliplet.com', 'https://us.cdn.api.fliplet.com'],
	ca: [...EVERY_REGION, 'https://ca.cdn.fliplet.com', 'https://ca.cdn.api.fliplet.com'],
};

/**
 * The API's own file host in each region, which serves the API's contents route too: the
 * platform's file manager rewrites a file's API URL to it (`apiCdnUrl`,
 * `Fliplet/fliplet-widget-file-manager: js/interface.js`) and puts the token in the URL. A contents
 * URL on it is read from the API host instead, with the token in the header (see locateFile).
 */
export const REGION_API_CDN: Record<'eu' | 'us' | 'ca', string> = {
	eu: 'https://cdn.api.fliplet.com',
	us: 'https://us.cdn.api.fliplet.com',
	ca: 'https://ca.cdn.api.fliplet.com',
};

/** Where files may be downloaded from: the API host (with the token) and the file hosts (without). */
export interface FileHosts {
	/** The API host's origin: the region's host, or the custom base URL's. */
	api: string;
	/** The base URL's path (empty at the host's root): the API's routes are below it. */
	apiPath: string;
	/**
	 * Origins that serve the API's contents route as its file host: the region's
	 * (`cdn.api.fliplet.com`…), or with a custom base URL each of its File Hosts (one of them may
	 * stand for the API's file host, as the sandbox's does).
	 */
	apiCdn: readonly string[];
	/** Origins of the file hosts. */
	cdn: readonly string[];
}

/**
 * The file hosts of a credential whose API host is `apiUrl`: the region's CDN hosts, or with a
 * custom base URL the origins its File Hosts field lists (none by default: a proxy or the sandbox
 * names its own), each https:// (or http:// on this machine, as the base URL). An error message
 * instead when one of them is not such an address.
 */
export function fileHostsOf(
	credentials: FlipletCredentialData,
	apiUrl: string,
): FileHosts | { error: string } {
	const base = new URL(apiUrl);
	const api = base.origin;
	const apiPath = withoutTrailingSlashes(base.pathname);
	const region = credentials.region ?? 'auto';
	if (region !== 'custom') {
		const known = region === 'auto' ? regionFromToken(credentials.accessToken ?? '') : region;
		return { api, apiPath, apiCdn: [REGION_API_CDN[known]], cdn: REGION_FILE_HOSTS[known] };
	}
	const cdn: string[] = [];
	for (const entry of String(credentials.fileHosts ?? '').split(/[\s,]+/)) {
		if (!entry) continue;
		let origin: string | undefined;
		try {
			origin = new URL(entry).origin;
		} catch {
			origin = undefined;
		}
		if (!origin || origin === 'null' || !isSafeBaseUrl(`${origin}/`)) {
			return {
				error: `The credential's File Hosts entry "${entry.slice(0, 100)}" is not an https:// address (http:// only on 127.0.0.1 or localhost)`,
			};
		}
		cdn.push(origin);
	}
	return { api, apiPath, apiCdn: cdn, cdn };
}

/** A file URL the node may fetch: on the API host (the token goes with it) or a file host (not). */
export type FileLocation = { host: 'api' | 'cdn'; url: URL } | { refused: string };

/**
 * The API route that serves a file's bytes, the only one a file URL may name on the API host:
 * `v1/media/files/<id>/contents`, optionally with the file's name after it, as the platform's
 * URLs of private and encrypted files read (`Fliplet/fliplet-cli: docs/REST-API/fliplet-media.md`,
 * `docs/File-security.md`; Studio's file manager appends `encodeURIComponent(file.name)`).
 */
const CONTENTS_ROUTE = /^\/v1\/media\/files\/\d+\/contents(?:\/[^/]*)?$/;
const NAMED = /^(\/v1\/media\/files\/\d+\/contents)\/([^/]*)$/;

function isContentsRoute(pathname: string, apiPath: string): boolean {
	return pathname.startsWith(`${apiPath}/`) && CONTENTS_ROUTE.test(pathname.slice(apiPath.length));
}

/**
 * A contents URL whose name segment is the file's name cleaned (cleanFileName) and encoded again,
 * or left out when nothing is left of it. The route serves the file by its id, and the name is only
 * a label: cleaned, it can hold no encoded folder step (`..%2F..%2Fuser`) for a server that decodes
 * it before routing, and no control characters.
 */
function withCleanName(url: URL, apiPath: string): URL {
	const named = NAMED.exec(url.pathname.slice(apiPath.length));
	if (!named) return url;
	const clean = cleanFileName(percentDecoded(named[2]));
	const rewritten = new URL(url.href);
	rewritten.pathname = `${apiPath}${named[1]}${clean ? `/${encodeURIComponent(clean)}` : ''}`;
	return rewritten;
}

/**
 * An `auth_token` query key in any case, also in the bracket forms a server's query parser reads as
 * the same parameter (`auth_token[]`, `auth_token[0]`).
 */
const QUERY_TOKEN = /^auth_token(?:\[[^\]]*\])*$/i;

/**
 * The URL without any `auth_token` query parameter: a URL fetched with the token carries only the
 * credential's, in the header (a token someone put in an entry's URL would read as theirs).
 */
function withoutQueryToken(url: URL): URL {
	const clean = new URL(url.href);
	for (const key of [...clean.searchParams.keys()]) {
		if (QUERY_TOKEN.test(key)) clean.searchParams.delete(key);
	}
	return clean;
}

/**
 * Where a file URL points, or why it is not fetched: only an absolute http(s) URL on the API host
 * or a file host, compared by origin (scheme, host and port: `https://cdn.fliplet.com.evil.com`,
 * `http://cdn.fliplet.com` and `https://cdn.fliplet.com:8443` are other hosts), and without a user
 * name or password in it. On the API host only the contents route, below the credential's base
 * URL path, is fetched (with the token), its name segment cleaned (withCleanName): any other API
 * address (`/v1/user`, a data source's entries) would hand API data to whoever can write a file
 * column. A contents URL on the API's file host (`cdn.api.fliplet.com`…, see FileHosts.apiCdn) is
 * read from the API host on the same path, so the token never goes to a file host nor into a URL.
 */
export function locateFile(raw: string, hosts: FileHosts): FileLocation {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		return { refused: 'it is not an absolute URL' };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { refused: `it is a ${url.protocol.replace(/:$/, '')}: address, not http(s)` };
	}
	if (url.username || url.password) return { refused: 'it carries a user name or password' };
	if (url.origin === hosts.api) {
		if (isContentsRoute(url.pathname, hosts.apiPath)) {
			return { host: 'api', url: withoutQueryToken(withCleanName(url, hosts.apiPath)) };
		}
		return {
			refused: `it is an address of the Fliplet API other than a file's contents (${hosts.api}${hosts.apiPath}/v1/media/files/<id>/contents): only those are read with the token`,
		};
	}
	if (hosts.apiCdn.includes(url.origin) && isContentsRoute(url.pathname, '')) {
		const onApi = new URL(`${hosts.api}${hosts.apiPath}${url.pathname}${url.search}`);
		return { host: 'api', url: withoutQueryToken(withCleanName(onApi, hosts.apiPath)) };
	}
	if (hosts.cdn.includes(url.origin)) return { host: 'cdn', url };
	return { refused: `${url.origin} is neither the Fliplet API host nor one of its file hosts` };
}
