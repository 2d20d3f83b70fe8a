export type FlipletRegion = 'auto' | 'eu' | 'us' | 'ca' | 'custom';

export const REGION_HOSTS = {
	eu: 'https://api.fliplet.com',
	us: 'https://us.api.fliplet.com',
	ca: 'https://ca.api.fliplet.com',
} as const;

export interface FlipletCredentialData {
	accessToken?: string;
	region?: FlipletRegion;
	baseUrl?: string;
	/** With a custom base URL: the origins files may be downloaded from without the token. */
	fileHosts?: string;
	/** Seconds before a data request is abandoned (the field kept its first name). */
	timeout?: number;
	/** Seconds before an email or SMS request is abandoned. */
	communicateTimeout?: number;
	/** Seconds before an AI request is abandoned. */
	aiTimeout?: number;
	/** The organization's plan, which sets the AI requests a minute: 'free' (the default) or 'paid'. */
	aiPlan?: string;
	/** How many n8n processes send requests with this token: each starts at that share of a limit. */
	processes?: number;
}

const LOOPBACK_HTTP = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/i;

export function regionFromToken(token: string): keyof typeof REGION_HOSTS {
	const prefix = token.trim().slice(0, 4).toLowerCase();
	if (prefix === 'us--') return 'us';
	if (prefix === 'ca--') return 'ca';
	return 'eu';
}

export function isValidUrl(url: string): boolean {
	try {
		return Boolean(new URL(url).host);
	} catch {
		return false;
	}
}

/**
 * The text without its trailing slashes. A loop, not `/\/+$/`: that pattern is retried from every
 * slash of a run that does not end the text, so a long run of slashes would take quadratic time.
 */
export function withoutTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
	return text.slice(0, end);
}

/** True when the token would travel encrypted, or only to this machine. */
export function isSafeBaseUrl(url: string): boolean {
	return /^https:\/\//i.test(url) || LOOPBACK_HTTP.test(url + '/');
}

/**
 * The API host for a credential. Returns an error message instead of a URL when a custom base
 * URL would send the token in clear text to another machine.
 */
export function resolveBaseUrl(
	credentials: FlipletCredentialData,
): { url: string } | { error: string } {
	const region = credentials.region ?? 'auto';
	if (region === 'custom') {
		const url = withoutTrailingSlashes(String(credentials.baseUrl ?? '').trim());
		if (!url) return { error: 'The credential uses a custom base URL but none is set' };
		if (!isSafeBaseUrl(url)) {
			return {
				error:
					'The custom base URL must start with https:// (http:// is only accepted for 127.0.0.1 or localhost), so the API token is never sent unencrypted',
			};
		}
		if (!isValidUrl(url)) return { error: `The custom base URL "${url}" is not a valid address` };
		return { url };
	}
	if (region === 'auto')
		return { url: REGION_HOSTS[regionFromToken(credentials.accessToken ?? '')] };
	return { url: REGION_HOSTS[region] };
}
