/**
 * A path segment no URL can carry: every HTTP client and proxy resolves "." and ".." as "this
 * folder" and "the folder above" (RFC 3986 5.2.4), also when written %2E or %2E%2E (an encoded
 * unreserved character is the character itself, RFC 3986 2.3 and 6.2.2.2; the WHATWG URL parser
 * treats %2e as a dot), and an empty segment turns `/v1/data-sources/` into the list. Encoding
 * cannot help, so such a segment is refused before anything is sent.
 */
export class UnsendablePathSegmentError extends Error {
	readonly description: string;

	constructor(readonly segment: string) {
		super(
			segment === ''
				? 'An empty name or ID cannot be part of a request address'
				: `"${segment}" cannot be part of a request address: web addresses read it as a folder step`,
		);
		this.name = 'UnsendablePathSegmentError';
		this.description =
			'A web address reads "." as "this folder" and ".." as "the folder above" (also when encoded as %2E), and skips an empty part, so the request would reach another record. Nothing was sent. Pick the record from the list or give its ID, or rename it in Fliplet.';
	}
}

/** Whether the text, as one path segment, would be resolved away or collapsed by a URL. */
export function isUnsendablePathSegment(text: string): boolean {
	return text === '' || text === '.' || text === '..';
}

/** One URL-encoded path segment (`/`, `?`, `#`, `%` stay inside it); refuses what a URL resolves away. */
export function pathSegment(segment: string | number): string {
	const text = String(segment);
	if (isUnsendablePathSegment(text)) throw new UnsendablePathSegmentError(text);
	return encodeURIComponent(text);
}
