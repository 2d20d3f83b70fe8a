export const MAX_SAME_ORIGIN_REDIRECTS = 3;

/** The absolute target of a redirect response, or undefined when it has no usable Location. */
export function redirectTarget(headers: Record<string, unknown>, from: string): URL | undefined {
	const key = Object.keys(headers ?? {}).find((name) => name.toLowerCase() === 'location');
	const location = key === undefined ? undefined : headers[key];
	if (typeof location !== 'string' || !location) return undefined;
	try {
		return new URL(location, from);
	} catch {
		return undefined;
	}
}

/**
 * Whether a redirect may be followed with the token: only a GET, only to the origin the
 * credential names (the token must never reach another host), and only a few times.
 */
export function mayFollowRedirect(
	target: URL,
	allowedOrigin: string,
	method: string,
	redirectsSoFar: number,
): boolean {
	return (
		target.origin === allowedOrigin &&
		method === 'GET' &&
		redirectsSoFar < MAX_SAME_ORIGIN_REDIRECTS
	);
}
