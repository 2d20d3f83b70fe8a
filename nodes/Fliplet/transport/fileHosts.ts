import { isSafeBaseUrl, regionFromToken, type FlipletCredentialData } from './baseUrl';

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

/** Where files may be downloaded from: the API host (with the token) and the file hosts (without). */
export interface FileHosts {
	/** The API host's origin: the region's host, or the custom base URL's. */
	api: string;
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
	const api = new URL(apiUrl).origin;
	const region = credentials.region ?? 'auto';
	if (region !== 'custom') {
		const known = region === 'auto' ? regionFromToken(credentials.accessToken ?? '') : region;
		return { api, cdn: REGION_FILE_HOSTS[known] };
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
	return { api, cdn };
}

/** A file URL the node may fetch: on the API host (the token goes with it) or a file host (not). */
export type FileLocation = { host: 'api' | 'cdn'; url: URL } | { refused: string };

/**
 * Where a file URL points, or why it is not fetched: only an absolute http(s) URL on the API host
 * or a file host, compared by origin (scheme, host and port: `https://cdn.fliplet.com.evil.com`,
 * `http://cdn.fliplet.com` and `https://cdn.fliplet.com:8443` are other hosts), and without a user
 * name or password in it.
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
	if (url.origin === hosts.api) return { host: 'api', url };
	if (hosts.cdn.includes(url.origin)) return { host: 'cdn', url };
	return { refused: `${url.origin} is neither the Fliplet API host nor one of its file hosts` };
}
